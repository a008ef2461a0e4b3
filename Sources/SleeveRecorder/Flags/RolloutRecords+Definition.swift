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
}
