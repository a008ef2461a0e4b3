/// Copies of the observed values with other timestamps, for an observer that keeps its own
/// clock and passes every event on (the demo's simulated time, which makes its recordings the
/// same on any machine). Everything but the times is the original's.
///
/// Not public: an app's observer reports what happened when it happened; only this package's
/// simulations restate the times.
extension FireInfo {
  /// This fire, begun at `atNanoseconds`.
  package func retimed(atNanoseconds: Int64) -> FireInfo {
    FireInfo(
      id: id, control: control, events: events, origin: origin, parent: parent, depth: depth,
      atNanoseconds: atNanoseconds)
  }
}

extension HandlerOutcome {
  /// This outcome, started at `startedAtNanoseconds` and lasting `durationNanoseconds`.
  package func retimed(startedAtNanoseconds: Int64, durationNanoseconds: Int64) -> HandlerOutcome {
    HandlerOutcome(
      fire: fire, registration: registration, status: status, flag: flag, isAsync: isAsync,
      startedAtNanoseconds: startedAtNanoseconds, durationNanoseconds: durationNanoseconds,
      error: error)
  }
}

extension InteractionInfo {
  /// This interaction, begun at `atNanoseconds` and ended at `endedAtNanoseconds`.
  package func retimed(atNanoseconds: Int64, endedAtNanoseconds: Int64) -> InteractionInfo {
    InteractionInfo(
      id: id, control: control, gesture: gesture, wasEnabled: wasEnabled, depth: depth,
      firstFire: firstFire, lastFire: lastFire, fireCount: fireCount,
      atNanoseconds: atNanoseconds, endedAtNanoseconds: endedAtNanoseconds)
  }
}

extension RegistrationInfo {
  /// This registration, reported at `atNanoseconds`.
  package func retimed(atNanoseconds: Int64) -> RegistrationInfo {
    RegistrationInfo(
      id: id, control: control, events: events, kind: kind, isAsync: isAsync,
      identifier: identifier, flagKey: flagKey, anchorType: anchorType, site: site,
      change: change, replaced: replaced, atNanoseconds: atNanoseconds)
  }
}

extension RemovalInfo {
  /// This removal, at `atNanoseconds`.
  package func retimed(atNanoseconds: Int64) -> RemovalInfo {
    RemovalInfo(id: id, control: control, reason: reason, atNanoseconds: atNanoseconds)
  }
}
