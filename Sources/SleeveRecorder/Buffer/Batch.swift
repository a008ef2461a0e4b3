/// Buffered events in three lanes, so the hot ones (fires and outcomes) are stored inline with
/// no per-event boxing: an outcome is plain integers (its error, if any, sits in ``errors``).
///
/// Order is kept within each lane. The writer applies the lanes in an order that respects
/// every foreign key: structural events (sessions, registrations, flags), then fires, then
/// outcomes, then session ends.
struct Batch: Sendable {
  var structural: [PendingEvent] = []
  var fires: [SessionFire] = []
  var outcomes: [SessionOutcome] = []
  /// Errors thrown by handlers; `OutcomeRecord.errorIndex` is 1 + an index here.
  var errors: [any Error] = []

  var count: Int { structural.count + fires.count + outcomes.count }
  var isEmpty: Bool { structural.isEmpty && fires.isEmpty && outcomes.isEmpty }

  mutating func reserveCapacity(_ capacity: Int) {
    fires.reserveCapacity(capacity / 4)
    outcomes.reserveCapacity(capacity)
  }

  mutating func removeAll() {
    structural.removeAll(keepingCapacity: true)
    fires.removeAll(keepingCapacity: true)
    outcomes.removeAll(keepingCapacity: true)
    errors.removeAll(keepingCapacity: true)
  }
}

/// A fire and its session.
struct SessionFire: Sendable {
  let session: SessionKey
  let record: FireRecord
}

/// An outcome and its session.
struct SessionOutcome: Sendable {
  let session: SessionKey
  var record: OutcomeRecord
}
