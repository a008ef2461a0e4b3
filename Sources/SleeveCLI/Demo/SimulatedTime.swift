import SleeveCore
import SleeveRecorder

/// The demo's observer: passes every event of its controls to the recording session, with
/// the times of a simulated clock in place of the machine's, so a demo recording is the same
/// on any machine and under any load (its session is tagged ``tag`` to say so).
///
/// The clock starts at the machine's time when the observer is made and moves only by what
/// the simulation says: a handler that ran took what it declared (``Simulation``), a
/// synchronous handler's time includes the fires it sent (they lie inside it, as the lint's
/// nesting check expects), an async handler's is a wait the clock does not spend, a handler
/// that did not run took nothing, and a person's pause between gestures is ``pause(_:)``.
/// Fires, interactions, registrations and removals are stamped with the clock's time when
/// they happen; flag changes keep the recorder's own times (no duration is drawn from them).
@MainActor
final class SimulatedTime: SessionDispatchObserver {
  /// The session tag a recording with simulated durations carries.
  static let tag = "simulated-durations"

  private let session: RecordingSession
  private let simulation: Simulation
  /// The simulated time, in ``MonotonicClock`` nanoseconds.
  private(set) var now: Int64
  /// The open fires, outermost first: when each began, and when its next handler starts.
  private var open: [(fire: FireID, began: Int64, next: Int64)] = []
  /// When each interaction fire began, until its interaction ends.
  private var interactionFires: [FireID: Int64] = [:]

  /// An observer recording into `session` the times `simulation` declares.
  init(session: RecordingSession, simulation: Simulation) {
    self.session = session
    self.simulation = simulation
    now = MonotonicClock.nanoseconds()
  }

  /// A person's pause between gestures: the clock moves on by `duration`.
  func pause(_ duration: Duration) {
    now += MonotonicClock.nanoseconds(in: duration)
  }

  /// The session's unit, for rollouts by session.
  var rolloutSessionUnit: String? { session.rolloutSessionUnit }

  func registered(_ registration: RegistrationInfo) {
    session.registered(registration.retimed(atNanoseconds: now))
  }

  func removed(_ removal: RemovalInfo) {
    session.removed(removal.retimed(atNanoseconds: now))
  }

  func fireBegan(_ fire: FireInfo) {
    open.append((fire.id, now, now))
    if fire.origin == .interaction { interactionFires[fire.id] = now }
    session.fireBegan(fire.retimed(atNanoseconds: now))
  }

  func handlerFinished(_ outcome: HandlerOutcome) {
    let ran: Bool
    switch outcome.status {
    case .ok, .failed, .cancelled: ran = true
    case .ownerReleased, .skipped, .recursionLimit: ran = false
    }
    let (started, duration) = times(of: outcome.fire, ran: ran, isAsync: outcome.isAsync)
    session.handlerFinished(
      outcome.retimed(startedAtNanoseconds: started, durationNanoseconds: duration))
  }

  func handlerSucceeded(
    fire: FireID, registration: RegistrationID, startedAtNanoseconds: Int64,
    durationNanoseconds: Int64
  ) {
    let (started, duration) = times(of: fire, ran: true, isAsync: false)
    session.handlerSucceeded(
      fire: fire, registration: registration, startedAtNanoseconds: started,
      durationNanoseconds: duration)
  }

  func fireEnded(_ fire: FireInfo, atNanoseconds: Int64) {
    var began = now
    if let index = open.lastIndex(where: { $0.fire == fire.id }) {
      began = open[index].began
      open.remove(at: index)
    }
    session.fireEnded(fire.retimed(atNanoseconds: began), atNanoseconds: now)
  }

  func flagChanged(_ change: FlagChange) {
    session.flagChanged(change)
  }

  func interactionEnded(_ interaction: InteractionInfo) {
    let first = interaction.firstFire.rawValue
    let last = interaction.lastFire.rawValue
    let began = interactionFires[interaction.firstFire] ?? now
    interactionFires = interactionFires.filter { !(first...last).contains($0.key.rawValue) }
    session.interactionEnded(
      interaction.retimed(atNanoseconds: began, endedAtNanoseconds: now))
  }

  /// When a handler of `fire` started and how long it took. A synchronous handler starts
  /// when the one before it in its fire ended (its fire's beginning, for the first), and
  /// took the fires it sent and then its own declared time; the clock moves to its end. An
  /// async handler starts now and waits its declared time without moving the clock.
  private func times(of fire: FireID, ran: Bool, isAsync: Bool) -> (Int64, Int64) {
    guard ran else { return (now, 0) }
    let own = simulation.takeDeclared()
    guard !isAsync, let index = open.lastIndex(where: { $0.fire == fire }) else {
      return (now, own)
    }
    let started = open[index].next
    now += own
    open[index].next = now
    return (started, now - started)
  }
}
