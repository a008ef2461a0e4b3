import SleeveStore

/// The error rate of one group: failed / (ok + failed), with its Wilson 95% interval and the
/// other statuses counted apart.
public struct ErrorRateRow: Equatable, Sendable {
  /// The group.
  public let key: String
  /// ok + failed: the invocations the rate is over.
  public let n: Int
  /// Invocations that returned.
  public let ok: Int
  /// Invocations that threw.
  public let failed: Int
  /// failed / n, or `nil` when n is 0.
  public let rate: Double?
  /// The Wilson 95% interval of the rate, or `nil` when n is 0.
  public let interval: WilsonInterval?
  /// Outcomes whose owner or target was gone.
  public let ownerReleased: Int
  /// Outcomes skipped (flag off, removed, disabled).
  public let skipped: Int
  /// Async outcomes cancelled.
  public let cancelled: Int
  /// Fires refused by the nesting limit.
  public let recursionLimit: Int

  /// The row for a tally.
  public init(_ tally: GroupTally) {
    key = tally.key
    ok = tally.ok
    failed = tally.failed
    n = tally.ran
    rate = n == 0 ? nil : Double(failed) / Double(n)
    interval = WilsonInterval(successes: failed, trials: n)
    ownerReleased = tally.count(.ownerReleased)
    skipped = tally.count(.skipped)
    cancelled = tally.count(.cancelled)
    recursionLimit = tally.count(.recursionLimit)
  }

  /// How the rate and interval are computed, as printed in reports.
  public static let method = "failed / (ok + failed), Wilson score interval at 95%"
}
