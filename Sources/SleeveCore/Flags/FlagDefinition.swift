/// A feature flag's definition: who owns it and what its gated handlers must meet to be
/// promoted.
///
/// ```swift
/// FlagDefinition(key: "new-checkout", owner: "payments",
///                thresholds: FlagThresholds(maxErrorRate: 0.01, maxP99: .milliseconds(50)))
/// ```
public struct FlagDefinition: Hashable, Sendable {
  /// The flag's key, as handlers name it in `on(_:flag:fallback:_:)`.
  public let key: String
  /// The team or person answerable for the flag.
  public let owner: String
  /// What the gated handlers must meet.
  public let thresholds: FlagThresholds

  /// Creates a definition.
  public init(key: String, owner: String, thresholds: FlagThresholds = FlagThresholds()) {
    self.key = key
    self.owner = owner
    self.thresholds = thresholds
  }
}

/// The limits a flag's gated handlers must meet. A `nil` limit is not checked.
public struct FlagThresholds: Hashable, Sendable {
  /// The highest acceptable error rate, failed / (ok + failed), from 0 to 1.
  public let maxErrorRate: Double?
  /// The highest acceptable 99th-percentile handler duration.
  public let maxP99: Duration?
  /// The fewest invocations a cohort needs before a check can pass or fail.
  public let minSamples: Int

  /// Creates thresholds. `minSamples` below 1 counts as 1; an error rate is clamped to 0...1.
  public init(maxErrorRate: Double? = nil, maxP99: Duration? = nil, minSamples: Int = 30) {
    self.maxErrorRate = maxErrorRate.map { min(max($0, 0), 1) }
    self.maxP99 = maxP99
    self.minSamples = max(minSamples, 1)
  }
}
