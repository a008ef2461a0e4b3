import SleeveCore
import Testing

@MainActor
@Suite("Flag-gated handlers")
struct FlagTests {
  @Test(
    "the primary runs when enabled, the fallback when disabled, rolled back or unknown",
    arguments: [
      (FlagState?.some(.enabled), "new", FlagVariant.on),
      (.some(.disabled), "old", .off),
      (.some(.rolledBack(reason: "p99 over budget")), "old", .off),
      (nil, "old", .off),
    ])
  func primaryOrFallbackByState(state: FlagState?, expected: String, variant: FlagVariant) {
    let flags = InMemoryFlagProvider(state.map { ["new-checkout": $0] } ?? [:])
    let observer = RecordingObserver()
    let button = Button(name: "pay", observer: observer, flags: flags)
    var ran: [String] = []
    button.on(.touchUpInside, flag: "new-checkout", fallback: { _ in ran.append("old") }) { _ in
      ran.append("new")
    }
    button.sendActions(for: .touchUpInside)
    #expect(ran == [expected])
    let evaluation = observer.outcomes.first?.flag
    #expect(evaluation?.key == "new-checkout")
    #expect(evaluation?.variant == variant)
    #expect(evaluation?.state == state)
    #expect(observer.outcomes.first?.status == .ok)
  }

  @Test("without a fallback an off flag skips the handler with reason flagOff")
  func offFlagWithoutFallbackSkips() {
    let observer = RecordingObserver()
    let button = Button(
      name: "pay", observer: observer, flags: InMemoryFlagProvider(["f": .disabled]))
    var ran = false
    button.on(.touchUpInside, id: "gated", flag: "f") { _ in ran = true }
    button.sendActions(for: .touchUpInside)
    #expect(!ran)
    #expect(observer.statuses == ["gated:skipped/flagOff"])
    #expect(observer.outcomes.first?.flag?.variant == .off)
  }

  @Test("a rollback takes effect at the next fire and is reported as a flag change")
  func rollbackTakesEffectAtNextFire() {
    let flags = InMemoryFlagProvider(
      ["new-checkout": .enabled],
      definitions: [
        FlagDefinition(
          key: "new-checkout", owner: "payments",
          thresholds: FlagThresholds(maxErrorRate: 0.01, maxP99: .milliseconds(50)))
      ])
    let observer = RecordingObserver()
    flags.addObserver(observer)
    let button = Button(name: "pay", observer: observer, flags: flags)
    var ran: [String] = []
    button.on(.touchUpInside, flag: "new-checkout", fallback: { _ in ran.append("old") }) { _ in
      ran.append("new")
    }
    button.sendActions(for: .touchUpInside)
    flags.set("new-checkout", to: .rolledBack(reason: "errors"), actor: "oncall")
    button.sendActions(for: .touchUpInside)
    #expect(ran == ["new", "old"])
    let change = observer.flagChanges.first
    #expect(change?.previous == .enabled)
    #expect(change?.state == .rolledBack(reason: "errors"))
    #expect(change?.actor == "oncall")
    #expect(change?.definition?.owner == "payments")
    #expect(change?.definition?.thresholds.maxP99 == .milliseconds(50))
    #expect(observer.outcomes.last?.flag?.reason == "rolledBack")
  }

  @Test("async primary and fallback are supported")
  func asyncFlagGatedHandlers() async {
    let flags = InMemoryFlagProvider(["f": .enabled])
    let button = Button(name: "pay", flags: flags)
    var ran: [String] = []
    button.on(
      .touchUpInside, flag: "f",
      fallback: { _ in
        await Task.yield()
        ran.append("old")
      }
    ) { _ in
      await Task.yield()
      ran.append("new")
    }
    button.sendActions(for: .touchUpInside)
    await MainActor.run { flags.set("f", to: .disabled) }
    button.sendActions(for: .touchUpInside)
    await button.waitUntilIdle()
    #expect(Set(ran) == ["new", "old"])
  }

  @Test("thresholds clamp out-of-range values")
  func thresholdsClampOutOfRangeValues() {
    let thresholds = FlagThresholds(maxErrorRate: 1.5, minSamples: 0)
    #expect(thresholds.maxErrorRate == 1)
    #expect(thresholds.minSamples == 1)
    #expect(FlagThresholds(maxErrorRate: -1).maxErrorRate == 0)
  }

  @Test("definitions are listed by key and a later one replaces an earlier one")
  func definitionsAreListedByKey() {
    let flags = InMemoryFlagProvider(definitions: [
      FlagDefinition(key: "b", owner: "one"), FlagDefinition(key: "a", owner: "two"),
    ])
    flags.define(FlagDefinition(key: "b", owner: "three"))
    #expect(flags.definitions.map(\.owner) == ["two", "three"])
    #expect(flags.state(of: "a") == nil)
  }
}
