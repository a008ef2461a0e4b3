import SleeveCore
import Testing

@MainActor
@Suite("Async handlers")
struct AsyncHandlerTests {
  @Test("an async handler reports its outcome and duration when it completes")
  func asyncHandlerReportsOnCompletion() async {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    button.on(.touchUpInside, id: "slow") { _ in
      try await Task.sleep(for: .milliseconds(5))
    }
    button.on(.touchUpInside, id: "sync") { _ in }
    button.sendActions(for: .touchUpInside)
    #expect(observer.statuses == ["sync:ok"])
    #expect(button.runningHandlerCount == 1)
    await button.waitUntilIdle()
    #expect(observer.statuses == ["sync:ok", "slow:ok"])
    let slow = observer.outcomes[1]
    #expect(slow.isAsync)
    #expect(slow.durationNanoseconds >= 5_000_000)
    #expect(button.runningHandlerCount == 0)
  }

  @Test("an async handler runs in its turn until its first suspension")
  func asyncHandlerStartsInItsTurn() async {
    let button = Button(name: "b")
    var order: [String] = []
    button.on(.touchUpInside) { _ in
      order.append("async starts")
      await Task.yield()
      order.append("async resumes")
    }
    button.on(.touchUpInside) { _ in order.append("sync") }
    button.sendActions(for: .touchUpInside)
    await button.waitUntilIdle()
    #expect(order == ["async starts", "sync", "async resumes"])
  }

  @Test("an async handler that throws reports failed")
  func asyncHandlerThatThrowsReportsFailed() async {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    button.on(.touchUpInside, id: "h") { _ in
      await Task.yield()
      throw TestFailure(message: "timeout")
    }
    button.sendActions(for: .touchUpInside)
    await button.waitUntilIdle()
    #expect(observer.statuses == ["h:failed"])
    #expect(observer.outcomes.first?.errorMessage == "timeout")
  }

  @Test("cancelling the registration cancels its running task: outcome cancelled")
  func cancellingRegistrationCancelsRunningTask() async {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    let registration = button.on(.touchUpInside, id: "h") { _ in
      try await Task.sleep(for: .seconds(60))
    }
    button.sendActions(for: .touchUpInside)
    registration.cancel()
    await button.waitUntilIdle()
    #expect(observer.statuses == ["h:cancelled"])
  }

  @Test("an async handler that completes without suspending reports before the next handler")
  func asyncHandlerWithoutSuspensionReportsInOrder() async {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    button.on(.touchUpInside, id: "instant") { (_: Button) async in }
    button.on(.touchUpInside, id: "next") { _ in }
    button.on(.touchUpInside, id: "suspending") { _ in await Task.yield() }
    button.on(.touchUpInside, id: "last") { _ in }
    button.sendActions(for: .touchUpInside)
    // The async handler that never suspends has reported before the next handler ran; the one
    // that suspends reports when it finishes, after the fire's synchronous handlers.
    #expect(observer.statuses == ["instant:ok", "next:ok", "last:ok"])
    await button.waitUntilIdle()
    #expect(observer.statuses == ["instant:ok", "next:ok", "last:ok", "suspending:ok"])
    #expect(button.runningHandlerCount == 0)
  }
}
