import SleeveTestSupport
import Testing

@testable import SleeveStore

@Suite("Rows that belong to no session")
struct UnownedRowsTests {
  static let bits = RowID.numberBits

  @Test(
    "the unowned id ranges are everything below, between and above runs of consecutive sessions")
  func gapsBetweenRuns() {
    let gaps = UnownedRows.unownedIDRanges(sessions: [1, 2, 3, 5])
    let first: Int64 = 1 << Self.bits
    let fourth: Int64 = 4 << Self.bits
    let fifth: Int64 = 5 << Self.bits
    let sixth: Int64 = 6 << Self.bits
    let expected: [ClosedRange<Int64>] = [
      Int64.min...(first - 1), fourth...(fifth - 1), sixth...Int64.max,
    ]
    #expect(gaps == expected)
    #expect(UnownedRows.unownedIDRanges(sessions: []) == [Int64.min...Int64.max])
  }

  @Test("the last session a file can hold leaves no range above it, and nothing traps")
  func lastSessionHasNoGapAbove() {
    let last = RowID.sessions.upperBound
    let gaps = UnownedRows.unownedIDRanges(sessions: [last - 1, last])
    let below: Int64 = (last - 1) << Self.bits
    #expect(gaps == [Int64.min...(below - 1)])
    // A session id outside RowID.sessions owns no ids, so it leaves the ranges as they were.
    #expect(
      UnownedRows.unownedIDRanges(sessions: [0, 1]) == UnownedRows.unownedIDRanges(sessions: [1]))
  }

  @Test(
    "rows under no session, and a registration naming another session in its column, are counted per table"
  )
  func countsPerTable() throws {
    let fixture = try FixtureDatabase.standard()
    #expect(try UnownedRows.count(on: fixture.connection).isEmpty)
    try fixture.connection.execute("PRAGMA foreign_keys = OFF")
    // Two outcomes of session 2 moved below every session (session part 0).
    try fixture.connection.execute(
      """
      UPDATE outcomes SET id = id & \(RowID.numberMask) WHERE id IN
        (SELECT id FROM outcomes WHERE id >> \(Self.bits) = 2 ORDER BY id LIMIT 2);
      UPDATE registrations SET session_id = 1 WHERE id IN
        (SELECT id FROM registrations WHERE id >> \(Self.bits) = 2 ORDER BY id LIMIT 1);
      """)
    let unowned = try UnownedRows.count(on: fixture.connection)
    #expect(
      unowned.counts == [
        UnownedRows.Count(table: "registrations", rows: 1),
        UnownedRows.Count(table: "outcomes", rows: 2),
      ])
    #expect(unowned.description == "1 row of registrations, 2 of outcomes")
  }
}
