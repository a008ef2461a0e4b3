/// The outcomes of one group: a count per status and, when asked for, the durations of the
/// invocations that ran (ok or failed).
public struct GroupTally: Sendable {
  /// The group's name: a control, handler, event, flag, `flag:variant` or `id name` of a
  /// session.
  public let key: String
  /// Counts indexed by status code (`ok` 0, `failed` 1, `ownerReleased` 2, `skipped` 3,
  /// `cancelled` 4, `recursionLimit` 5).
  public internal(set) var counts = [Int](repeating: 0, count: 6)
  /// Durations in nanoseconds of the outcomes that ran (ok or failed), unordered.
  public internal(set) var durations: [Int64] = []

  /// Creates an empty tally.
  public init(key: String) { self.key = key }

  /// Invocations that ran: ok + failed.
  public var ran: Int { counts[0] + counts[1] }
  /// Outcomes that ran ok.
  public var ok: Int { counts[0] }
  /// Outcomes that threw.
  public var failed: Int { counts[1] }
  /// All outcomes, whatever their status.
  public var total: Int { counts.reduce(0, +) }

  /// The key of the group whose key is unknown: ungated handlers under `--by flag`, and
  /// outcomes whose registration, control or fire row is missing.
  public static let unknownKey = "-"

  /// The names of the status codes, in code order.
  public static let statusNames = [
    "ok", "failed", "ownerReleased", "skipped", "cancelled", "recursionLimit",
  ]
}
