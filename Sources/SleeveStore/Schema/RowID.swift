/// The row-id scheme of the id-partitioned tables (controls, registrations, fires, outcomes):
/// `session << 32 | number`, so `id >> 32` is the session and a session's rows are one
/// contiguous key range in each table (see Migrations/0002_row_ids.sql).
///
/// Sessions are `1...2,147,483,647` (2^31 − 1) per file and numbers `1...4,294,967,295`
/// (2^32 − 1) per session and table. Nothing here wraps or traps: an id that would not fit is
/// `nil`, and a session outside its range owns no ids.
///
/// ```swift
/// let id = RowID.make(session: 3, number: 7)  // 3 << 32 | 7
/// let ids = RowID.range(of: 3)                 // every id whose session part is 3
/// ```
public enum RowID {
  /// Bits of a row id that hold the number within the session.
  public static let numberBits: Int64 = 32
  /// The mask of the number part, `2^32 − 1`.
  public static let numberMask: Int64 = 1 << numberBits - 1
  /// The session ids a file can hold: `1...2^31 − 1`.
  public static let sessions: ClosedRange<Int64> = 1...(1 << 31 - 1)
  /// The row numbers a session can hold in each table: `1...2^32 − 1`.
  public static let numbers: ClosedRange<Int64> = 1...numberMask

  /// The id of row `number` of `session`, or `nil` when either is out of its range.
  @inlinable public static func make(session: Int64, number: Int64) -> Int64? {
    guard sessions.contains(session), numbers.contains(number) else { return nil }
    return session << numberBits | number
  }

  /// The number part of `id`: the row's number within its session, the same in every file
  /// the session is merged into.
  @inlinable public static func number(of id: Int64) -> Int64 { id & numberMask }

  /// The session part of `id` (an arithmetic shift: never traps).
  @inlinable public static func session(of id: Int64) -> Int64 { id >> numberBits }

  /// Every id whose session part is `session`, as a closed range (the last one of session
  /// 2^31 − 1 is `Int64.max`, so no bound is ever computed past it); `nil` for a session
  /// outside `1...2^31 − 1`, which owns no ids.
  @inlinable public static func range(of session: Int64) -> ClosedRange<Int64>? {
    guard sessions.contains(session) else { return nil }
    let lower = session << numberBits
    return lower...(lower | numberMask)
  }
}
