/// A feature flag's definition: who owns it, what its gated handlers must meet to be
/// promoted, how it is rolled out by percentage, and which of its checks decide.
///
/// ```swift
/// FlagDefinition(key: "new-checkout", owner: "payments",
///                thresholds: FlagThresholds(maxErrorRate: 0.01, maxP99: .milliseconds(50)),
///                rollout: try RolloutPlan(unit: .key("user"), stages: [1, 5, 25, 50, 100]),
///                severities: [.latencyVersusOff: .advisory])
/// ```
public struct FlagDefinition: Hashable, Sendable {
  /// The flag's key, as handlers name it in `on(_:flag:fallback:_:)`.
  public let key: String
  /// The team or person answerable for the flag.
  public let owner: String
  /// What the gated handlers must meet.
  public let thresholds: FlagThresholds
  /// How a percentage rollout assigns units, and its stages.
  public let rollout: RolloutPlan
  /// How much each check counts; a check not named is ``CheckSeverity/critical``.
  public let severities: [FlagCheck: CheckSeverity]

  /// Creates a definition.
  public init(
    key: String, owner: String, thresholds: FlagThresholds = FlagThresholds(),
    rollout: RolloutPlan = .none, severities: [FlagCheck: CheckSeverity] = [:]
  ) {
    self.key = key
    self.owner = owner
    self.thresholds = thresholds
    self.rollout = rollout
    self.severities = severities
  }

  /// How much `check` counts: as given, else critical.
  public func severity(of check: FlagCheck) -> CheckSeverity {
    severities[check] ?? .critical
  }
}

/// A check of a flag's verdict, by the name `sleeve check` prints in its metric column.
public enum FlagCheck: String, CaseIterable, Hashable, Sendable {
  /// The flag-on error rate against `maxErrorRate`.
  case errorRate
  /// The flag-on p99 against `maxP99`.
  case p99
  /// The flag-on error rate against the flag-off one.
  case errorRateVersusOff
  /// The flag-on latency against the flag-off one.
  case latencyVersusOff
}

/// How much a check counts toward a flag's verdict.
public enum CheckSeverity: String, CaseIterable, Hashable, Sendable {
  /// It decides: one breach rolls the flag back whatever else passes, and while it lacks
  /// samples the flag holds. Every check is critical unless marked otherwise.
  case critical
  /// It is reported with its value and what it would have said, and never moves the verdict.
  case advisory
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
