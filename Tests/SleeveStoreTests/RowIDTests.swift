import SleeveStore
import Testing

@Suite("Row ids")
struct RowIDTests {
  @Test("session and number round-trip; a session's ids are one contiguous range")
  func roundTrip() {
    for (session, number) in [(Int64(1), Int64(1)), (7, 123_456), (3, RowID.numberMask)] {
      let id = RowID.make(session: session, number: number)
      #expect(RowID.session(of: id) == session)
      #expect(RowID.number(of: id) == number)
      let (lower, upper) = RowID.range(of: session)
      #expect(lower <= id && id < upper)
      #expect(upper == RowID.range(of: session + 1).lower)
    }
    #expect(RowID.make(session: 2, number: 1) == 2 << 40 | 1)
  }

  @Test("numbers wrap within their 40 bits and never spill into the session")
  func numbersWrap() {
    let id = RowID.make(session: 5, number: RowID.numberMask + 3)
    #expect(RowID.session(of: id) == 5)
    #expect(RowID.number(of: id) == 2)
  }
}
