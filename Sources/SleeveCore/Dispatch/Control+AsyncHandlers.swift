/// Async handlers: each invocation runs in its own task, started immediately on the main
/// actor (so it runs in its turn until its first suspension) and tracked until it completes.
extension Control {
  /// Waits until every async handler started by this control's fires has completed,
  /// including ones started while waiting.
  public func waitUntilIdle() async {
    while let running = runningTasks.values.first {
      await running.task.value
    }
  }

  /// How many async handler invocations of this control are still running.
  public var runningHandlerCount: Int { runningTasks.count }

  func startTask(
    for registration: RegistrationID, in observed: ObservedFire?, flag: FlagEvaluation?,
    startedAt start: Int64, _ body: @escaping @MainActor () async throws -> Void
  ) {
    taskCounter &+= 1
    let key = taskCounter
    let task = Task.immediate { @MainActor in
      var status = OutcomeStatus.ok
      var thrown: (any Error)?
      do {
        try await body()
        if Task.isCancelled { status = .cancelled }
      } catch {
        thrown = error
        status = error is CancellationError || Task.isCancelled ? .cancelled : .failed
      }
      self.taskCompleted(key)
      guard let observed else { return }
      observed.report(
        registration, status, flag: flag, isAsync: true, startedAt: start,
        duration: MonotonicClock.nanoseconds() - start, error: thrown)
    }
    if finishedBeforeTracked.remove(key) == nil {
      runningTasks[key] = RunningTask(registration: registration, task: task)
    }
  }

  /// Cancels the running tasks of one registration (it was removed or replaced).
  func cancelTasks(of registration: RegistrationID) {
    for running in runningTasks.values where running.registration == registration {
      running.task.cancel()
    }
  }

  private func taskCompleted(_ key: UInt64) {
    if runningTasks.removeValue(forKey: key) == nil {
      finishedBeforeTracked.insert(key)
    }
  }
}
