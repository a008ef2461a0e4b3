import SleeveCore

/// A test observer that keeps every event, as values and as compact lines for exact-sequence
/// assertions. Handlers are named by their `id:` (or their site), fires by control name.
final class RecordingObserver: DispatchObserver {
  private struct Log {
    var lines: [String] = []
    var outcomes: [HandlerOutcome] = []
    var fires: [FireInfo] = []
    var registrations: [RegistrationInfo] = []
    var removals: [RemovalInfo] = []
    var flagChanges: [FlagChange] = []
    var interactions: [InteractionInfo] = []
    var names: [RegistrationID: String] = [:]
  }

  private let log = Locked(Log())

  var lines: [String] { log.withLock { $0.lines } }
  var outcomes: [HandlerOutcome] { log.withLock { $0.outcomes } }
  var fires: [FireInfo] { log.withLock { $0.fires } }
  var registrations: [RegistrationInfo] { log.withLock { $0.registrations } }
  var removals: [RemovalInfo] { log.withLock { $0.removals } }
  var flagChanges: [FlagChange] { log.withLock { $0.flagChanges } }
  var interactions: [InteractionInfo] { log.withLock { $0.interactions } }

  /// The outcome statuses in order, as `handler:status[/reason]`.
  var statuses: [String] {
    log.withLock { log in
      log.outcomes.map { outcome in
        let name = log.names[outcome.registration] ?? outcome.registration.description
        let reason = outcome.status.reason.map { "/\($0)" } ?? ""
        return "\(name):\(outcome.status.name)\(reason)"
      }
    }
  }

  func registered(_ registration: RegistrationInfo) {
    log.withLock {
      $0.names[registration.id] = registration.handler
      $0.registrations.append(registration)
      $0.lines.append(
        "registered \(registration.handler) \(registration.events) \(registration.change)")
    }
  }

  func interactionEnded(_ interaction: InteractionInfo) {
    log.withLock {
      $0.interactions.append(interaction)
      $0.lines.append(
        "interaction \(interaction.control.name) \(interaction.gesture) \(interaction.fireCount)")
    }
  }

  func removed(_ removal: RemovalInfo) {
    log.withLock {
      let name = $0.names[removal.id] ?? removal.id.description
      $0.removals.append(removal)
      $0.lines.append("removed \(name) \(removal.reason)")
    }
  }

  func fireBegan(_ fire: FireInfo) {
    log.withLock {
      $0.fires.append(fire)
      $0.lines.append("fire \(fire.control.name) \(fire.events) \(fire.origin)")
    }
  }

  func handlerFinished(_ outcome: HandlerOutcome) {
    log.withLock {
      let name = $0.names[outcome.registration] ?? outcome.registration.description
      let reason = outcome.status.reason.map { "/\($0)" } ?? ""
      $0.outcomes.append(outcome)
      $0.lines.append("outcome \(name) \(outcome.status.name)\(reason)")
    }
  }

  func fireEnded(_ fire: FireInfo, atNanoseconds: Int64) {
    log.withLock { $0.lines.append("end \(fire.control.name) \(fire.events)") }
  }

  func flagChanged(_ change: FlagChange) {
    log.withLock {
      $0.flagChanges.append(change)
      $0.lines.append("flag \(change.key) \(change.state.name)")
    }
  }
}

/// A small class to use as an owner or target.
final class Counter {
  var count = 0

  func recordButton(_ button: Button) { count += 1 }
}

/// An error handlers throw in tests.
struct TestFailure: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}

/// A mutable slot that main-actor handlers can capture before it is filled (they are
/// `Sendable`, so they cannot capture a local `var` that changes later).
@MainActor
final class Slot<Value> {
  var value: Value
  init(_ value: Value) { self.value = value }
}
