import SleeveCore
import Synchronization

/// The stages of one recorder's sessions, so records a session keeps staged between fires
/// reach the writer even when no further fire hands them over.
///
/// A batched session hands its stage to the buffer once it holds ``FireStage/handOffLimit``
/// records, not at every fire's end (one lock and one copy for many fires). What it keeps
/// meanwhile is handed over by the first of: the next structural event that must follow it,
/// `flush()`, `end()`, `Recorder.close()`, the exit flush, and the writer's interval tick,
/// which asks the main actor to hand every stage over (``requestHandOver()``). The loss
/// window of a kill stays the flush interval (plus the main actor's latency to run the tick).
final class StagedSessions: Sendable {
  private let stages = Locked<[FireStage]>([])
  /// Set by a stage that kept records past a fire's end; taken by the writer's tick.
  private let waiting = Atomic(false)

  init() {}

  /// Adds a session's stage; those of ended sessions (handed over by `end()`, and staging
  /// nothing after it) are forgotten here too.
  func register(_ stage: FireStage) {
    stages.withLock { stages in
      stages.removeAll { $0.endedAt.load(ordering: .relaxed) != .max }
      stages.append(stage)
    }
  }

  /// Says a stage holds records it has not handed over, or was released (the tick will hand
  /// it over and forget it).
  func announce() {
    waiting.store(true, ordering: .releasing)
  }

  /// The writer's tick: when a stage announced records, asks the main actor to hand every
  /// stage over. Costs one atomic load when none did.
  func requestHandOver() {
    guard waiting.load(ordering: .relaxed),
      waiting.exchange(false, ordering: .acquiringAndReleasing)
    else { return }
    Task { @MainActor [self] in handOverAll() }
  }

  /// Hands every stage's records to the buffer, and forgets the stages of sessions that
  /// ended or were released.
  @MainActor
  func handOverAll() {
    let current = stages.withLock { $0 }
    for stage in current { stage.handOver() }
    stages.withLock { stages in stages.removeAll { $0.isRetired } }
  }
}
