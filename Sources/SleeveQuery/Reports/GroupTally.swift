import SleeveStore

/// The outcomes of one group: a count per status and, when asked for, the durations of the
/// invocations that ran (ok or failed).
public struct GroupTally: Sendable {
  /// The group's typed key.
  public let groupKey: GroupKey
  /// The group's name as reports show it: a control, handler, event, flag, `flag:variant` or
  /// `id name` of a session (`groupKey.display`).
  public var key: String { groupKey.display }
  /// Counts indexed by status code (`RecordCodes.Status`: `ok` 0, `failed` 1, …).
  public internal(set) var counts = [Int](repeating: 0, count: RecordCodes.Status.allCases.count)
  /// Durations in nanoseconds of the outcomes that ran (ok or failed), unordered; empty when
  /// the scan answered from summaries (then ``histogram`` holds them).
  public internal(set) var durations: [Int64] = []
  /// The durations of the outcomes that ran, as the exact merge of the group's summary
  /// histograms, when the scan answered from summaries (`nil` when it read raw rows).
  public internal(set) var histogram: ExponentialHistogram?

  /// Where the group's first handler was registered (`File.swift:42`), when the scan was
  /// asked to collect failures and the group is one handler.
  public internal(set) var site: String?
  /// The failed outcomes by kind (error type and message pattern), when the scan was asked to
  /// collect failures.
  public internal(set) var failureKinds: [FailureKind: Int] = [:]

  /// Creates an empty tally.
  public init(key: GroupKey) { self.groupKey = key }

  /// Creates an empty tally for a group named `key`.
  public init(key: String) { self.init(key: .name(key)) }

  /// The outcomes with `status`.
  public func count(_ status: RecordCodes.Status) -> Int { counts[Int(status.rawValue)] }

  /// Counts one outcome of stored status `code`; `false` (and nothing counted) for a code
  /// this binary does not know.
  mutating func add(status code: Int64) -> Bool {
    guard let status = RecordCodes.Status(rawValue: code) else { return false }
    counts[Int(status.rawValue)] += 1
    return true
  }

  /// Invocations that ran: ok + failed.
  public var ran: Int { ok + failed }
  /// Outcomes that ran ok.
  public var ok: Int { count(.ok) }
  /// Outcomes that threw.
  public var failed: Int { count(.failed) }
  /// All outcomes, whatever their status.
  public var total: Int { counts.reduce(0, +) }

  /// The key of the group whose key is unknown: ungated handlers under `--by flag`, and
  /// outcomes whose registration, control or fire row is missing.
  public static let unknownKey = "-"
}
