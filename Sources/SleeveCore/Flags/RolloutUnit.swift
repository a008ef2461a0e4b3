/// What a percentage rollout assigns to `on` or `off`: each unit always gets the same variant
/// at the same percentage.
///
/// The app declares it per flag in ``FlagDefinition/rollout``; a flag that declares none is
/// rolled out per ``fire`` (the documented default, which `sleeve rollout` states).
public enum RolloutUnit: Hashable, Sendable, CustomStringConvertible {
  /// Each fire is its own unit: every gated handler of one fire sees the same variant; the
  /// next fire is drawn afresh. Units carry a per-process random number, so which fires of
  /// a run are `on` differs from run to run (a run's slow first fire never always lands in
  /// the same cohort).
  case fire
  /// The recording session (its UUID, when a recording session observes the control; without
  /// one, the process): one variant per session.
  case session
  /// A key the app supplies by name (``FlagProvider/unitKey(named:)``), such as a user or
  /// device id: one variant per key, the same in every session and process. A fire made
  /// while the key is unknown is served `off` and counted as unassigned.
  case key(String)

  /// `fire`, `session`, or `key:NAME`: the name recorded and shown.
  public var description: String {
    switch self {
    case .fire: "fire"
    case .session: "session"
    case .key(let name): "key:\(name)"
    }
  }

  /// The unit `description` names, or `nil` for a text that names none.
  package init?(recorded text: String) {
    switch text {
    case "fire": self = .fire
    case "session": self = .session
    default:
      guard text.hasPrefix("key:"), text.utf8.count > 4 else { return nil }
      self = .key(String(text.dropFirst(4)))
    }
  }
}

/// One stage of a staged rollout: the share served `on`, and how many invocations each cohort
/// (on and off) needs at that share before `sleeve check --apply` can advance past it.
public struct RolloutStage: Hashable, Sendable {
  /// The share served `on` during the stage.
  public let percent: RolloutPercentage
  /// The fewest invocations each cohort needs at this stage (at least 1).
  public let minSamples: Int

  /// A stage at `percent` needing `minSamples` invocations per cohort (below 1 counts as 1).
  public init(_ percent: RolloutPercentage, minSamples: Int = 100) {
    self.percent = percent
    self.minSamples = max(minSamples, 1)
  }
}

/// How a flag is rolled out by percentage: its unit, its salt, and its stages.
///
/// ```swift
/// let plan = try RolloutPlan(unit: .key("user"), stages: [1, 5, 25, 50, 100])
/// ```
public struct RolloutPlan: Hashable, Sendable {
  /// The unit assigned, or `nil` when the app declared none (then ``effectiveUnit`` is
  /// ``RolloutUnit/fire``).
  public let unit: RolloutUnit?
  /// Mixed into the hash after the flag's key: change it to draw a fresh assignment.
  public let salt: String
  /// The stages in order, each share higher than the one before; empty for a flag rolled out
  /// by hand (`sleeve rollout FLAG --percent P`).
  public let stages: [RolloutStage]

  /// No declared unit, no salt, no stages.
  public static let none = RolloutPlan(unit: nil)

  /// A plan without stages.
  public init(unit: RolloutUnit?, salt: String = "") {
    self.unit = unit
    self.salt = salt
    stages = []
  }

  /// A plan with stages, which must rise strictly and stay within 0.01%...100%.
  ///
  /// - Throws: ``RolloutPlanError`` naming the first stage out of order or out of range.
  public init(unit: RolloutUnit?, salt: String = "", stages: [RolloutStage])
    throws(RolloutPlanError)
  {
    var previous: RolloutStage?
    for (position, stage) in stages.enumerated() {
      guard stage.percent.basisPoints > 0 else { throw .zeroStage(position: position + 1) }
      if let previous, stage.percent <= previous.percent {
        throw .notIncreasing(
          position: position + 1, percent: stage.percent, previous: previous.percent)
      }
      previous = stage
    }
    self.unit = unit
    self.salt = salt
    self.stages = stages
  }

  /// A plan with stages at `percents` (0...100, at most two decimals), each needing
  /// `minSamples` per cohort.
  ///
  /// - Throws: ``RolloutPlanError`` for a share out of range or out of order.
  public init(
    unit: RolloutUnit?, salt: String = "", stages percents: [Double], minSamples: Int = 100
  ) throws(RolloutPlanError) {
    var stages: [RolloutStage] = []
    for (position, percent) in percents.enumerated() {
      guard let share = RolloutPercentage(percent: percent) else {
        throw .notAPercentage(position: position + 1, value: percent)
      }
      stages.append(RolloutStage(share, minSamples: minSamples))
    }
    try self.init(unit: unit, salt: salt, stages: stages)
  }

  /// The unit the assignment uses: the declared one, else ``RolloutUnit/fire``.
  public var effectiveUnit: RolloutUnit { unit ?? .fire }

  /// The stage after the one serving `percent`: the first stage with a higher share, or `nil`
  /// when none is higher (the rollout is at or past its last stage).
  public func stage(after percent: RolloutPercentage) -> RolloutStage? {
    stages.first { $0.percent > percent }
  }

  /// The stage serving exactly `percent`, if the plan has one.
  public func stage(at percent: RolloutPercentage) -> RolloutStage? {
    stages.first { $0.percent == percent }
  }
}

/// Why a rollout plan's stages were refused.
public enum RolloutPlanError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A stage's share is not lower than the share before it.
  case notIncreasing(position: Int, percent: RolloutPercentage, previous: RolloutPercentage)
  /// A stage serves nobody.
  case zeroStage(position: Int)
  /// A stage's share is not a percentage from 0 to 100 with at most two decimals.
  case notAPercentage(position: Int, value: Double)

  /// One line saying which stage and why.
  public var description: String {
    switch self {
    case .notIncreasing(let position, let percent, let previous):
      "rollout stage \(position) (\(percent)) is not above the stage before it (\(previous)): "
        + "stages must rise"
    case .zeroStage(let position):
      "rollout stage \(position) serves 0%: every stage serves someone"
    case .notAPercentage(let position, let value):
      "rollout stage \(position) (\(value)) is not a percentage from 0 to 100 with at most "
        + "two decimals"
    }
  }
}

extension RolloutPlan {
  /// The plan a file recorded: its unit's name (``RolloutUnit/description``), salt and stages
  /// (share in basis points, samples per cohort); `nil` when it names a unit this binary does
  /// not know or holds stages a plan refuses.
  package init?(recordedUnit: String?, salt: String, stages: [(basisPoints: Int, minSamples: Int)])
  {
    var unit: RolloutUnit?
    if let recordedUnit {
      guard let known = RolloutUnit(recorded: recordedUnit) else { return nil }
      unit = known
    }
    var parsed: [RolloutStage] = []
    for stage in stages {
      guard let share = RolloutPercentage(basisPoints: stage.basisPoints) else { return nil }
      parsed.append(RolloutStage(share, minSamples: stage.minSamples))
    }
    guard let plan = try? RolloutPlan(unit: unit, salt: salt, stages: parsed) else { return nil }
    self = plan
  }
}

extension CheckSeverity {
  /// The severities a file recorded, by check name and severity name; names this binary does
  /// not know are left out (their checks stay critical).
  package static func recorded(_ names: [String: String]) -> [FlagCheck: CheckSeverity] {
    var known: [FlagCheck: CheckSeverity] = [:]
    for (name, level) in names {
      if let check = FlagCheck(rawValue: name), let severity = CheckSeverity(rawValue: level) {
        known[check] = severity
      }
    }
    return known
  }
}
