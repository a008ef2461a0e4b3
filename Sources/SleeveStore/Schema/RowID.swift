/// The row-id scheme of the id-partitioned tables (controls, registrations, fires, outcomes):
/// `session << 40 | number`, so `id >> 40` is the session and a session's rows are one
/// contiguous key range in each table (see Migrations/0001_initial.sql).
public enum RowID {
  /// Bits of a row id that hold the number within the session.
  public static let numberBits: Int64 = 40
  /// The mask of the number part, `2^40 - 1`.
  public static let numberMask: Int64 = 1 << numberBits - 1

  /// The id of row `number` of `session` (numbers wrap at 2^40).
  @inlinable public static func make(session: Int64, number: Int64) -> Int64 {
    session << numberBits | number & numberMask
  }

  /// The number part of `id`: the row's number within its session, the same in every file
  /// the session is merged into.
  @inlinable public static func number(of id: Int64) -> Int64 { id & numberMask }

  /// The session part of `id`.
  @inlinable public static func session(of id: Int64) -> Int64 { id >> numberBits }

  /// The ids of `session`'s rows: `lower..<upper`.
  @inlinable public static func range(of session: Int64) -> (lower: Int64, upper: Int64) {
    (session << numberBits, (session + 1) << numberBits)
  }
}
