import SleeveCore
import Testing

/// A session's unit for rollouts, as a recording session supplies one.
private final class SessionUnitObserver: SessionDispatchObserver {
  let unit: String
  let inner = RecordingObserver()
  init(unit: String) { self.unit = unit }
  var rolloutSessionUnit: String? { unit }
  func handlerFinished(_ outcome: HandlerOutcome) { inner.handlerFinished(outcome) }
}

@MainActor
@Suite("Percentage rollouts on the dispatch path")
struct RolloutDispatchTests {
  private func rollout(_ percent: Double, unit: RolloutUnit?, salt: String = "")
    -> InMemoryFlagProvider
  {
    InMemoryFlagProvider(
      ["new-checkout": .rollingOut(percent: RolloutPercentage(percent: percent)!)],
      definitions: [
        FlagDefinition(
          key: "new-checkout", owner: "payments", rollout: RolloutPlan(unit: unit, salt: salt))
      ])
  }

  @Test("a key unit always gets the variant its hash assigns, in every fire")
  func keyUnitIsStable() {
    let flags = rollout(50, unit: .key("user"))
    let observer = RecordingObserver()
    let button = Button(name: "pay", observer: observer, flags: flags)
    var ran: [String] = []
    button.on(.touchUpInside, flag: "new-checkout", fallback: { _ in ran.append("off") }) { _ in
      ran.append("on")
    }
    let half = RolloutPercentage(basisPoints: 5_000)!
    var sawBoth: Set<String> = []
    for user in 0..<40 {
      flags.setUnitKey("user-\(user)", named: "user")
      let expected =
        RolloutHash.isOn(
          RolloutHash.hash(key: "new-checkout", salt: "", unit: .text("user-\(user)")), at: half)
        ? "on" : "off"
      ran.removeAll()
      for _ in 0..<3 { button.sendActions(for: .touchUpInside) }
      #expect(ran == [expected, expected, expected], "user-\(user)")
      sawBoth.insert(expected)
    }
    #expect(sawBoth == ["on", "off"])
    let evaluation = observer.outcomes.last?.flag
    #expect(evaluation?.reason == "rollingOut")
    #expect(evaluation?.rollout?.unit == .key("user"))
    #expect(evaluation?.rolloutPercent == half)
  }

  @Test("a key unit the app has not supplied is served off and counted unassigned")
  func missingKeyIsUnassigned() {
    let flags = rollout(100, unit: .key("user"))
    let observer = RecordingObserver()
    let button = Button(name: "pay", observer: observer, flags: flags)
    var ran: [String] = []
    button.on(.touchUpInside, flag: "new-checkout", fallback: { _ in ran.append("off") }) { _ in
      ran.append("on")
    }
    button.sendActions(for: .touchUpInside)
    #expect(ran == ["off"])
    #expect(observer.outcomes.first?.flag?.reason == "unassigned")
    #expect(observer.outcomes.first?.flag?.rollout?.assignment == nil)
    flags.setUnitKey("u-1", named: "user")
    button.sendActions(for: .touchUpInside)
    #expect(ran == ["off", "on"], "at 100% every assigned unit is on")
  }

  @Test(
    "every gated handler of one fire sees the same variant, observed or not",
    arguments: [false, true])
  func fireUnitIsSharedWithinAFire(observed: Bool) {
    let flags = rollout(50, unit: nil)
    let button = Button(
      name: "pay", observer: observed ? RecordingObserver() : nil, flags: flags)
    var fire: [String] = []
    var fires: [[String]] = []
    for _ in 0..<3 {
      button.on(.touchUpInside, flag: "new-checkout", fallback: { _ in fire.append("off") }) {
        _ in fire.append("on")
      }
    }
    for _ in 0..<400 {
      fire.removeAll()
      button.sendActions(for: .touchUpInside)
      fires.append(fire)
    }
    #expect(fires.allSatisfy { Set($0).count == 1 && $0.count == 3 })
    let on = fires.count { $0.first == "on" }
    // Binomial(400, 0.5): sd 10; 5 sd either side.
    #expect((150...250).contains(on), "\(on) of 400 fires on at 50%")
  }

  @Test("a nested fire is its own unit, and its parent keeps its variant after it")
  func nestedFireIsItsOwnUnit() {
    let flags = rollout(50, unit: nil)
    let outer = Button(name: "outer", flags: flags)
    let inner = Button(name: "inner", flags: flags)
    var variants: [(String, String)] = []
    inner.on(
      .touchUpInside, flag: "new-checkout", fallback: { _ in variants.append(("inner", "off")) }
    ) {
      _ in variants.append(("inner", "on"))
    }
    outer.on(
      .touchUpInside, flag: "new-checkout", fallback: { _ in variants.append(("outer", "off")) }
    ) {
      _ in variants.append(("outer", "on"))
    }
    outer.on(.touchUpInside) { _ in inner.sendActions(for: .touchUpInside) }
    outer.on(
      .touchUpInside, flag: "new-checkout", fallback: { _ in variants.append(("after", "off")) }
    ) {
      _ in variants.append(("after", "on"))
    }
    var innerDiffered = false
    for _ in 0..<200 {
      variants.removeAll()
      outer.sendActions(for: .touchUpInside)
      #expect(variants.map(\.0) == ["outer", "inner", "after"])
      #expect(variants[0].1 == variants[2].1, "the outer fire's unit survives the nested fire")
      if variants[0].1 != variants[1].1 { innerDiffered = true }
    }
    #expect(innerDiffered, "a nested fire draws its own unit")
  }

  @Test(
    "a session unit serves one variant per session, from its hash, also inside a multiplexer",
    arguments: [false, true])
  func sessionUnitIsStable(multiplexed: Bool) {
    let flags = rollout(50, unit: .session, salt: "s1")
    let half = RolloutPercentage(basisPoints: 5_000)!
    var seen: Set<FlagVariant> = []
    for session in 0..<24 {
      let unit = "0000-session-\(session)"
      let observer = SessionUnitObserver(unit: unit)
      let attached: any DispatchObserver =
        multiplexed ? MultiplexObserver([RecordingObserver(), observer]) : observer
      let button = Button(name: "pay", observer: attached, flags: flags)
      button.on(.touchUpInside, flag: "new-checkout", fallback: { _ in }) { _ in }
      for _ in 0..<5 { button.sendActions(for: .touchUpInside) }
      let variants = Set(observer.inner.outcomes.compactMap(\.flag?.variant))
      let expected: FlagVariant =
        RolloutHash.isOn(
          RolloutHash.hash(key: "new-checkout", salt: "s1", unit: .text(unit)), at: half)
        ? .on : .off
      #expect(variants == [expected], "session \(session)")
      seen.formUnion(variants)
    }
    #expect(seen == [.on, .off])
  }

  @Test("0% serves everyone off and 100% everyone on", arguments: [(0.0, "off"), (100.0, "on")])
  func edgesServeEveryoneAlike(percent: Double, expected: String) {
    let button = Button(name: "pay", flags: rollout(percent, unit: nil))
    var ran: Set<String> = []
    button.on(.touchUpInside, flag: "new-checkout", fallback: { _ in ran.insert("off") }) { _ in
      ran.insert("on")
    }
    for _ in 0..<300 { button.sendActions(for: .touchUpInside) }
    #expect(ran == [expected])
  }

  @Test("stages that do not rise, or serve nobody, are refused where the plan is made")
  func badStagesAreRefused() throws {
    #expect(throws: RolloutPlanError.self) {
      try RolloutPlan(unit: nil, stages: [1, 5, 5, 50])
    }
    #expect(throws: RolloutPlanError.self) { try RolloutPlan(unit: nil, stages: [10, 5]) }
    #expect(throws: RolloutPlanError.self) { try RolloutPlan(unit: nil, stages: [0, 5]) }
    #expect(throws: RolloutPlanError.self) { try RolloutPlan(unit: nil, stages: [1, 100.5]) }
    do {
      _ = try RolloutPlan(unit: nil, stages: [1, 25, 5])
      Issue.record("stages 1, 25, 5 were accepted")
    } catch {
      #expect(
        error.description
          == "rollout stage 3 (5%) is not above the stage before it (25%): stages must rise")
    }
    let plan = try RolloutPlan(unit: .key("user"), stages: [1, 5, 25, 50, 100], minSamples: 200)
    #expect(plan.stages.map(\.percent.basisPoints) == [100, 500, 2_500, 5_000, 10_000])
    #expect(plan.stage(after: RolloutPercentage(basisPoints: 500)!)?.percent.basisPoints == 2_500)
    #expect(plan.stage(after: .everyone) == nil)
    #expect(plan.stages.allSatisfy { $0.minSamples == 200 })
  }

  @Test("a flag that declares no unit is rolled out per fire")
  func undeclaredUnitIsTheFire() {
    #expect(RolloutPlan.none.effectiveUnit == .fire)
    let observer = RecordingObserver()
    let button = Button(
      name: "pay", observer: observer,
      flags: InMemoryFlagProvider([
        "f": .rollingOut(percent: RolloutPercentage(basisPoints: 5_000)!)
      ]))
    button.on(.touchUpInside, flag: "f", fallback: { _ in }) { _ in }
    button.sendActions(for: .touchUpInside)
    #expect(observer.outcomes.first?.flag?.rollout?.unit == .fire)
  }
}
