import SleeveCore

/// Counts the fires and outcomes a mirror reports, to prove one platform send is one fire.
final class FireLog: DispatchObserver {
  private struct Log {
    var fires: [FireInfo] = []
    var outcomes: [HandlerOutcome] = []
    var removals: [RemovalInfo] = []
  }
  private let log = Locked(Log())

  var fires: [FireInfo] { log.withLock { $0.fires } }
  var outcomes: [HandlerOutcome] { log.withLock { $0.outcomes } }
  var removals: [RemovalInfo] { log.withLock { $0.removals } }

  func fireBegan(_ fire: FireInfo) { log.withLock { $0.fires.append(fire) } }
  func handlerFinished(_ outcome: HandlerOutcome) { log.withLock { $0.outcomes.append(outcome) } }
  func removed(_ removal: RemovalInfo) { log.withLock { $0.removals.append(removal) } }
}

/// An owner or target whose lifetime a test controls.
@MainActor
final class Owner {
  var calls = 0
  func didSend(_ control: Control) { calls += 1 }
}
