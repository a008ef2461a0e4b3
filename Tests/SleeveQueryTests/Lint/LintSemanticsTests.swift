import Foundation
import SleeveCore
import SleeveQuery
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

/// Wiring a hostile reviewer would try, recorded through the real core and recorder: what
/// each check must (and must not) say about it.
@Suite("Lint semantics on realistic wiring")
struct LintSemanticsTests {
  @Test("a tap whose async handler was cancelled mid-run reached a handler: it is not dead")
  @MainActor
  func cancelledAsyncHandlerIsNotDead() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("async.sqlite")
    let recorder = try await Recorder(path: path)
    let session = try await recorder.startSession(name: "async")
    let search = Button(name: "search", observer: session)
    // The handler starts, then is removed while it waits (cell reuse, a screen closed).
    let registration = search.on(.touchUpInside) { _ in
      try await Task.sleep(for: .seconds(600))
    }
    search.tap()
    registration.cancel()
    await search.waitUntilIdle()
    try await session.end()
    try await recorder.close()
    let database = try QueryDatabase(path: path)
    let report = try LintScenario.lint(database)
    let cancelled = try Connection(path: path).scalarInt(
      "SELECT count(*) FROM outcomes WHERE status = \(RecordCodes.Status.cancelled.rawValue)")
    try #require(cancelled == 1, "the cancelled outcome was not recorded")
    #expect(!report.findings.contains { $0.check == .deadInteraction })
  }

  @Test("taps a handler sends are not the user's: three buttons tapping one shared are no rage")
  @MainActor
  func nestedInteractionsAreNoRage() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("nested.sqlite")
    let recorder = try await Recorder(path: path)
    let session = try await recorder.startSession(name: "nested")
    let shared = Button(name: "shared", observer: session)
    shared.on(.touchUpInside) { _ in }
    // Each of three buttons, tapped once by the user, taps `shared` from its handler.
    for name in ["first", "second", "third"] {
      let button = Button(name: name, observer: session)
      button.on(.touchUpInside) { _ in shared.tap() }
      button.tap()
    }
    try await session.end()
    try await recorder.close()
    let database = try QueryDatabase(path: path)
    let nested = try Connection(path: path).scalarInt(
      "SELECT count(*) FROM interactions WHERE depth = 2")
    try #require(nested == 3, "the nested taps were not recorded as interactions")
    #expect(try LintScenario.lint(database).findings.isEmpty)
  }

  @Test("a tap whose only handler is behind a flag that is off did nothing: dead; a fallback ran")
  @MainActor
  func flagOffHandlerIsDeadUnlessAFallbackRan() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("flags.sqlite")
    let recorder = try await Recorder(path: path)
    let session = try await recorder.startSession(name: "flags")
    let flags = InMemoryFlagProvider(["new-checkout": .disabled])
    let gated = Button(name: "gated", observer: session, flags: flags)
    let gatedLine = #line + 1
    gated.on(.touchUpInside, flag: "new-checkout") { _ in }
    let fallback = Button(name: "fallback", observer: session, flags: flags)
    fallback.on(.touchUpInside, flag: "new-checkout", fallback: { _ in }) { _ in }
    gated.tap()
    fallback.tap()
    try await session.end()
    try await recorder.close()
    let report = try LintScenario.lint(try QueryDatabase(path: path))
    // The user saw an enabled button and nothing happened: hide or disable it while off. The
    // finding names the gated handler, the button's wiring.
    let site = LintScenario.site("LintSemanticsTests.swift", gatedLine)
    #expect(LintScenario.summary(report) == ["dead-interaction: gated - @\(site) [warning]"])
  }
}
