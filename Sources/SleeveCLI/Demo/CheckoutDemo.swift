import SleeveCore
import SleeveRecorder

/// A simulated checkout screen, recorded through the real recorder: buttons, a switch, a text
/// field, a flaky handler, a slow async handler, a handler whose owner is released, and a flag
/// rolled back halfway through. Its traffic is replayed as programmatic fires
/// (``ReplayedTraffic``); then, unless the run says otherwise, one user visits the screen by
/// hand (``CheckoutVisit``), so `sleeve lint` finds each of its checks once. Handlers take
/// simulated time (``Simulation``, ``SimulatedTime``), so the recording is the same on any
/// machine.
@MainActor
final class CheckoutDemo {
  /// What a run recorded (not the session itself, so the recorder closes, and checkpoints
  /// its file, as soon as the run returns).
  struct Summary {
    let sessionID: Int64
    let sessionName: String
    /// The replayed gestures (taps, toggles, typing).
    let replayed: Int
  }

  /// The analytics model the owner-bound handler belongs to; released halfway.
  final class Analytics {
    var events = 0
  }

  struct CardDeclined: Error, CustomStringConvertible {
    var description: String { "card declined by the simulated gateway" }
  }

  struct OrderRejected: Error, CustomStringConvertible {
    var description: String { "new checkout flow rejected the order" }
  }

  struct ShippingTimeout: Error, CustomStringConvertible {
    let milliseconds: UInt64
    var description: String { "shipping quote timed out after \(milliseconds) ms" }
  }

  struct MissingTotal: Error, CustomStringConvertible {
    let offset: UInt64
    var description: String { "missing key 'total' in the cart response at offset \(offset)" }
  }

  /// How one run of the screen behaves: the plain demo, or one run of a recorded history.
  struct Run {
    /// The session's name.
    var name = "Checkout screen (demo)"
    /// Where it ran (`nil`: as the environment says).
    var context: RunContext?
    /// The test it records, if any.
    var test: TestIdentity?
    /// Scales the card charge's work (a regression makes it slower).
    var chargeScale: UInt64 = 2
    /// Card declines per thousand charges.
    var declinesPerThousand: UInt64 = 30
    /// Shipping quotes that time out, per thousand (a flaky handler in some runs).
    var quoteTimeoutsPerThousand: UInt64 = 0
    /// Whether updating the total meets a cart response without its total (a failure type
    /// the history never had).
    var missingTotal = false
    /// Orders the new checkout flow (flag new-checkout on) rejects, per hundred.
    var newCheckoutRejectsPerHundred: UInt64 = 6
    /// Whether the flag new-checkout is rolled back halfway.
    var rollsBackFlag = true
    /// Whether the run has `sleeve lint`'s pitfalls: the analytics owner released a third of
    /// the way while the pay button keeps firing (an orphaned handler), and
    /// ``CheckoutVisit``'s visit at the end (every other check).
    var pitfalls = true
    /// The simulation's seed.
    var seed: UInt64 = 2026
  }

  let fires: Int
  let progress: (Int, Int) -> Void
  let run: Run

  init(fires: Int, run: Run = Run(), progress: @escaping (Int, Int) -> Void) {
    self.fires = fires
    self.run = run
    self.progress = progress
  }

  /// Records one session into `path`; with a ``Run/context``, nothing of the environment's CI
  /// context is read (the history is the same wherever it is recorded).
  func run(path: String) async throws -> Summary {
    var options = RecorderOptions(whenFull: .block)
    if run.context != nil { options.contextEnvironment = [:] }
    let recorder = try await Recorder(path: path, options: options)
    let session = try await recorder.startSession(
      name: run.name, tags: ["demo", SimulatedTime.tag], environment: ["CI", "USER"],
      context: run.context, test: run.test)
    let flags = InMemoryFlagProvider(
      ["new-checkout": .enabled],
      definitions: [
        FlagDefinition(
          key: "new-checkout", owner: "payments-team",
          thresholds: FlagThresholds(maxErrorRate: 0.02, maxP99: .milliseconds(5), minSamples: 50))
      ])
    session.record(flags)
    let simulation = Simulation(seed: run.seed)
    let time = SimulatedTime(session: session, simulation: simulation)
    let run = self.run
    var analytics: Analytics? = Analytics()

    let pay = Button(name: "checkout.pay", observer: time, flags: flags)
    let giftWrap = Switch(name: "checkout.gift-wrap", observer: time)
    let promo = TextField(name: "checkout.promo-code", observer: time)
    let cancel = Button(name: "checkout.cancel", observer: time)

    pay.on(.touchUpInside, id: "validate-cart") { _ in simulation.work(1) }
    pay.on(.touchUpInside, id: "charge-card") { _ in
      simulation.work(run.chargeScale)
      if simulation.next(1_000) < run.declinesPerThousand { throw CardDeclined() }
    }
    pay.on(
      .touchUpInside, id: "submit-order", flag: "new-checkout",
      fallback: { _ in
        simulation.work(2)
        if simulation.next(1_000) < 5 { throw OrderRejected() }
      }
    ) { _ in
      simulation.work(4)
      if simulation.next(100) < run.newCheckoutRejectsPerHundred { throw OrderRejected() }
    }
    if let analytics {
      pay.on(.primaryActionTriggered, id: "track-purchase", owner: analytics) { analytics, _ in
        analytics.events += 1
      }
    }
    giftWrap.on(.valueChanged, id: "update-total") { _ in
      simulation.work(1)
      if run.missingTotal && simulation.next(100) < 2 {
        throw MissingTotal(offset: simulation.next(4_096))
      }
    }
    var quotes = 0
    giftWrap.on(.valueChanged, id: "fetch-shipping-quote") { toggle async throws in
      guard toggle.isOn else { return }
      quotes += 1
      // The network: every 20th quote waits 2 ms, the others a plain handler's moment.
      if quotes % 20 == 0 { simulation.takes(.milliseconds(2)) }
      if simulation.next(1_000) < run.quoteTimeoutsPerThousand {
        throw ShippingTimeout(milliseconds: 2_000 + simulation.next(500))
      }
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
      case 0..<70: ReplayedTraffic.tap(pay)
      case 70..<85: ReplayedTraffic.toggle(giftWrap)
      case 85..<95:
        promo.text = ""
        ReplayedTraffic.type("SAVE10", into: promo)
      default: ReplayedTraffic.tap(cancel)
      }
      if index == releaseAt && run.pitfalls { analytics = nil }
      if index == rollbackAt && run.rollsBackFlag {
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
    if run.pitfalls {
      await CheckoutVisit(time: time, simulation: simulation).run(cancel: cancel)
    }
    // The owners the run does not release live until the session ends: an owner gone early
    // would orphan its handler.
    withExtendedLifetime((router, analytics)) {}
    progress(fires, fires)
    if run.test != nil {
      try await session.end(testResult: .passed)
    } else {
      try await session.end()
    }
    try await recorder.close()  // the file is checkpointed (no -wal) before the demo reports
    return Summary(sessionID: session.rowID, sessionName: session.name, replayed: fires)
  }
}

/// The target of the cancel button's target-action.
final class CancelRouter {
  var dismissals = 0

  func dismiss(_ button: Button) { dismissals += 1 }
}
