import SleeveCore
import SleeveRecorder

/// A simulated checkout screen, recorded through the real recorder: buttons, a switch, a text
/// field, a flaky handler, a slow async handler, a handler whose owner is released, and a flag
/// rolled back halfway through.
@MainActor
final class CheckoutDemo {
  /// What a run recorded (not the session itself, so the recorder closes, and checkpoints
  /// its file, as soon as the run returns).
  struct Summary {
    let sessionID: Int64
    let sessionName: String
    let interactions: Int
  }

  /// The analytics model the owner-bound handler belongs to; released halfway.
  final class Analytics {
    var events = 0
  }

  /// Simulated work and failures, from a fixed-seed generator so every run is the same.
  struct Simulation {
    private var state: UInt64

    init(seed: UInt64) { state = seed &* 6_364_136_223_846_793_005 &+ 1 }

    /// A value in 0..<bound.
    mutating func next(_ bound: UInt64) -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return (state >> 33) % bound
    }

    /// Spins for a few hundred nanoseconds, with a long tail now and then.
    mutating func work(_ scale: UInt64) {
      let spins = next(100) < 3 ? 2_000 * scale : 50 + next(200) * scale
      var sink: UInt64 = 0
      for index in 0..<spins { sink = sink &+ index &* 31 }
      if sink == 42 { state &+= 1 }
    }
  }

  struct CardDeclined: Error, CustomStringConvertible {
    var description: String { "card declined by the simulated gateway" }
  }

  struct OrderRejected: Error, CustomStringConvertible {
    var description: String { "new checkout flow rejected the order" }
  }

  let fires: Int
  let progress: (Int, Int) -> Void

  init(fires: Int, progress: @escaping (Int, Int) -> Void) {
    self.fires = fires
    self.progress = progress
  }

  /// Records one session into `path`.
  func run(path: String) async throws -> Summary {
    let recorder = try Recorder(path: path, options: RecorderOptions(whenFull: .block))
    let session = try recorder.startSession(
      name: "demo: checkout screen", tags: ["demo"], environment: ["CI", "USER"])
    let flags = InMemoryFlagProvider(
      ["new-checkout": .enabled],
      definitions: [
        FlagDefinition(
          key: "new-checkout", owner: "payments-team",
          thresholds: FlagThresholds(maxErrorRate: 0.02, maxP99: .milliseconds(5), minSamples: 50))
      ])
    session.attach(flags)
    var simulation = Simulation(seed: 2026)
    var analytics: Analytics? = Analytics()

    let pay = Button(name: "checkout.pay", observer: session, flags: flags)
    let giftWrap = Switch(name: "checkout.gift-wrap", observer: session)
    let promo = TextField(name: "checkout.promo-code", observer: session)
    let cancel = Button(name: "checkout.cancel", observer: session)

    pay.on(.touchUpInside, id: "validate-cart") { _ in simulation.work(1) }
    pay.on(.touchUpInside, id: "charge-card") { _ in
      simulation.work(2)
      if simulation.next(100) < 3 { throw CardDeclined() }
    }
    pay.on(
      .touchUpInside, id: "submit-order", flag: "new-checkout",
      fallback: { _ in
        simulation.work(2)
        if simulation.next(1_000) < 5 { throw OrderRejected() }
      }
    ) { _ in
      simulation.work(4)
      if simulation.next(100) < 6 { throw OrderRejected() }
    }
    if let analytics {
      pay.on(.primaryActionTriggered, id: "track-purchase", owner: analytics) { analytics, _ in
        analytics.events += 1
      }
    }
    giftWrap.on(.valueChanged, id: "update-total") { _ in simulation.work(1) }
    var quotes = 0
    giftWrap.on(.valueChanged, id: "fetch-shipping-quote") { toggle in
      guard toggle.isOn else { return }
      quotes += 1
      if quotes % 20 == 0 { try await Task.sleep(for: .milliseconds(2)) }
    }
    promo.on(.editingChanged, id: "validate-promo") { field in
      simulation.work(UInt64(field.text.count))
    }
    let router = CancelRouter()
    cancel.addTarget(router, action: CancelRouter.dismiss, id: "dismiss", for: .touchUpInside)

    let rollbackAt = fires / 2
    let releaseAt = fires / 3
    let step = max(fires / 100, 1)
    for index in 0..<fires {
      switch simulation.next(100) {
      case 0..<70: pay.tap()
      case 70..<85: giftWrap.toggle()
      case 85..<95:
        promo.text = ""
        promo.type("SAVE10")
      default: cancel.tap()
      }
      if index == releaseAt { analytics = nil }
      if index == rollbackAt {
        flags.set(
          "new-checkout", to: .rolledBack(reason: "error rate over 2% in the demo"),
          actor: "sleeve demo")
      }
      if index % step == 0 {
        progress(index, fires)
        await giftWrap.waitUntilIdle()
      }
    }
    await giftWrap.waitUntilIdle()
    progress(fires, fires)
    try await session.end()
    try await recorder.close()  // the file is checkpointed (no -wal) before the demo reports
    return Summary(sessionID: session.rowID, sessionName: session.name, interactions: fires)
  }
}

/// The target of the cancel button's target-action.
final class CancelRouter {
  var dismissals = 0

  func dismiss(_ button: Button) { dismissals += 1 }
}
