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

  /// Adds one summary: its counts, its histogram (when `durations`, merged exactly) and its
  /// failure kinds (when `failures`); `false` (the tally unchanged) when its histogram's
  /// limits differ from those merged before.
  mutating func add(_ summary: OutcomeSummary, durations: Bool, failures: Bool) -> Bool {
    if durations {
      if histogram == nil {
        histogram = summary.durations
      } else if !histogram!.merge(summary.durations) {
        return false
      }
    }
    for (status, count) in summary.statusCounts.enumerated() where status < counts.count {
      counts[status] = counts[status].addingClamped(count)
    }
    if failures {
      for (kind, sample) in summary.failures {
        failureKinds[kind] = (failureKinds[kind] ?? 0).addingClamped(sample.count)
      }
    }
    return true
  }

  /// Every group of `groups` as one (counts added, durations concatenated or histograms
  /// merged), keyed `-`: for the pooled figures of a whole selection. The groups come from one
  /// scan, so they are all raw or all summaries, with equal histogram limits.
  static func pooled(_ groups: [GroupTally]) -> GroupTally {
    var pooled = GroupTally(key: .unknown)
    for group in groups {
      for index in pooled.counts.indices { pooled.counts[index] += group.counts[index] }
      pooled.durations += group.durations
      if let histogram = group.histogram {
        if pooled.histogram == nil {
          pooled.histogram = histogram
        } else {
          _ = pooled.histogram!.merge(histogram)  // one scan's histograms share their limits
        }
      }
    }
    return pooled
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

extension Int {
  /// This count plus `more`, clamped at `Int.max` (a summary's counts are unsigned 64-bit).
  fileprivate func addingClamped(_ more: UInt64) -> Int {
    let (sum, overflow) = addingReportingOverflow(Int(clamping: more))
    return overflow ? Int.max : sum
  }
}
