import SleeveStore
import Testing

@Suite("Row ids")
struct RowIDTests {
  @Test(
    "session and number round-trip; a session's ids are one contiguous range",
    arguments: [
      (Int64(1), Int64(1)), (Int64(7), Int64(123_456)), (Int64(3), RowID.numberMask),
      (Int64(8_388_607), Int64(42)),
    ] as [(Int64, Int64)])
  func roundTrip(session: Int64, number: Int64) throws {
    let id = try #require(RowID.make(session: session, number: number))
    #expect(RowID.session(of: id) == session)
    #expect(RowID.number(of: id) == number)
    let range = try #require(RowID.range(of: session))
    #expect(range.contains(id))
    #expect(range.upperBound + 1 == RowID.range(of: session + 1)?.lowerBound)
    #expect(RowID.make(session: 2, number: 1) == 8_589_934_593)  // 2 << 32 | 1
  }

  @Test("the split is session << 32 | number: 2^31 - 1 sessions, 2^32 - 1 numbers each")
  func limits() {
    #expect(RowID.sessions == 1...2_147_483_647)
    #expect(RowID.numbers == 1...4_294_967_295)
    #expect(RowID.make(session: RowID.sessions.upperBound, number: RowID.numberMask) == .max)
  }

  @Test(
    "ids that would not fit are nil, never wrapped into another session",
    arguments: [
      (5, RowID.numberMask + 1), (5, 0), (5, -1), (0, 1), (-1, 1),
      (RowID.sessions.upperBound + 1, 1), (.max, 1), (.min, 1),
    ] as [(Int64, Int64)])
  func outOfRangeIsNil(session: Int64, number: Int64) {
    #expect(RowID.make(session: session, number: number) == nil)
  }

  @Test(
    "the last sessions' ranges end inside Int64: 2^23 - 1 and 2^31 - 1 are visible",
    arguments: [Int64(8_388_607), 8_388_608, RowID.sessions.upperBound])
  func lastSessionsHaveRanges(session: Int64) throws {
    let range = try #require(RowID.range(of: session))
    #expect(range.lowerBound == session << 32)
    #expect(range.upperBound == session << 32 | RowID.numberMask)
    #expect(RowID.session(of: range.upperBound) == session)
  }

  @Test(
    "a session id outside 1...2^31 - 1 owns no ids (no trap for Int64.max or min)",
    arguments: [Int64(0), -1, RowID.sessions.upperBound + 1, .max, .min])
  func outOfRangeSessionsOwnNothing(session: Int64) {
    #expect(RowID.range(of: session) == nil)
  }
}
