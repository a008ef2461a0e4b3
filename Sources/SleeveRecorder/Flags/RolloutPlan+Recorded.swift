import SleeveCore
import SleeveStore

extension RolloutRecords.Plan {
  /// A definition's rollout plan and severities as the recorder stores them.
  init(_ definition: FlagDefinition) {
    let plan = definition.rollout
    self.init(
      unit: plan.unit?.description, salt: plan.salt,
      stages: plan.stages.map { ($0.percent.basisPoints, $0.minSamples) },
      severities: Dictionary(
        uniqueKeysWithValues: definition.severities.map { ($0.key.rawValue, $0.value.rawValue) }))
  }

  /// The definition's rollout plan this recorded plan describes, or `nil` when it names a
  /// unit this binary does not know or holds stages a plan refuses.
  var rolloutPlan: RolloutPlan? {
    var unit: RolloutUnit?
    if let text = self.unit {
      guard let known = RolloutUnit(recorded: text) else { return nil }
      unit = known
    }
    let stages = stages.compactMap { stage in
      RolloutPercentage(basisPoints: stage.basisPoints).map {
        RolloutStage($0, minSamples: stage.minSamples)
      }
    }
    return try? RolloutPlan(unit: unit, salt: salt, stages: stages)
  }

  /// The severities this recorded plan names that this binary knows.
  var checkSeverities: [FlagCheck: CheckSeverity] {
    var known: [FlagCheck: CheckSeverity] = [:]
    for (name, level) in severities {
      if let check = FlagCheck(rawValue: name), let severity = CheckSeverity(rawValue: level) {
        known[check] = severity
      }
    }
    return known
  }
}
