import SleeveStore

/// The file for the lint benchmark (`lint-db`): one session of a checkout screen used by hand
/// for days, `outcomes` outcomes in all, written with prepared inserts in transactions of
/// 4,096 interactions.
///
/// It is written by SQL, not recorded: the recorder stamps real time, so millions of
/// interactions recorded in seconds would be one endless rage burst on every control, where
/// a real screen's interactions are seconds apart. The rows keep migration 0004's
/// rules: each interaction's fires are exactly the fires of its control with origin 0 at its
/// depth between its first and last fire ids; every registration has its lifetime, additions
/// and removals numbered in one order; a replacement names what it replaced.
///
/// The screen: `pay` (validate-cart, charge-card failing 3%, submit-order failing 0.5%,
/// track-purchase on primaryActionTriggered owned by an analytics object released a third of
/// the way through), `gift-wrap` (update-total, and fetch-shipping-quote, async, failing 1%),
/// `promo-code` (validate-promo on each character typed), `cancel` (a target-action, and a
/// closure from another site cancelled halfway), `apple-pay` (never wired: its taps are dead)
/// and `express-shipping`, whose rare toggles fire themselves to the nesting limit. Two thirds
/// of the way, submit-order is replaced by id from another site. Interactions are 0.4 s to
/// 3 s apart, typing 120 ms a character; 0.3% of pay taps start a burst of 3 to 5 taps; 0.5%
/// of pay taps meet it disabled; durations are mostly microseconds, with a tail to
/// milliseconds and charge-card stalling past a frame once in 100,000 invocations.
enum LintFixture {
  /// Writes the session into `path` (created and migrated when missing).
  static func write(outcomes: Int, path: String) throws {
    let connection = try SleeveDatabase.openForWriting(path: path)
    try BenchSessionRow.insert(1, name: "lint benchmark", into: connection)
    let writer = try LintFixtureWriter(session: 1, budget: outcomes, connection: connection)
    try writer.writeAll()
  }
}

/// One handler of the fixture's screen, and how it behaves.
private struct FixtureHandler {
  var registration: Int64
  let events: Int64
  let isAsync: Bool
  let failuresPerMille: UInt64
  let stallsPerHundredThousand: UInt64
  let error: (type: String, message: String)?
  var isLive = true
}

/// Writes the fixture's rows, keeping the session's counters (fire, outcome, interaction and
/// registration numbers, the lifetime order, the clock).
private final class LintFixtureWriter {
  // Events (ControlEvents raw values).
  static let touchDown: Int64 = 1 << 0
  static let touchUpInside: Int64 = 1 << 6
  static let valueChanged: Int64 = 1 << 12
  static let primaryActionTriggered: Int64 = 1 << 13
  static let editingDidBegin: Int64 = 1 << 16
  static let editingChanged: Int64 = 1 << 17
  static let editingDidEnd: Int64 = 1 << 18
  static let nestingLimit = 32

  let session: Int64
  let base: Int64
  let budget: Int
  let connection: Connection
  var random = FixtureRandom(seed: 0x11A7)
  var written = 0
  var clock: Int64 = 1_000_000_000_000
  var fireNumber: Int64 = 0
  var outcomeNumber: Int64 = 0
  var interactionNumber: Int64 = 0
  var registrationNumber: Int64 = 0
  var lifetimeOrder: Int64 = 0

  let insertControl: Statement
  let insertRegistration: Statement
  let insertLifetime: Statement
  let removeRegistration: Statement
  let endLifetime: Statement
  let insertFire: Statement
  let insertOutcome: Statement
  let insertInteraction: Statement

  // The screen.
  var pay: Int64 = 0
  var giftWrap: Int64 = 0
  var promo: Int64 = 0
  var cancel: Int64 = 0
  var applePay: Int64 = 0
  var express: Int64 = 0
  var payHandlers: [FixtureHandler] = []  // touchUpInside, in order
  var trackPurchase: FixtureHandler?
  var giftHandlers: [FixtureHandler] = []
  var promoHandler: FixtureHandler?
  var cancelHandlers: [FixtureHandler] = []
  var expressHandler: FixtureHandler?
  var released = false
  var cancelledLog = false
  var replacedSubmit = false

  init(session: Int64, budget: Int, connection: Connection) throws {
    self.session = session
    self.base = session << RowID.numberBits
    self.budget = budget
    self.connection = connection
    insertControl = try connection.prepare(
      "INSERT INTO controls (id, session_id, name, kind) VALUES (?, ?, ?, ?)")
    insertRegistration = try connection.prepare(
      """
      INSERT INTO registrations (id, session_id, control_id, events, kind, handler, identifier,
        is_async, anchor_type, site, registered_at_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    insertLifetime = try connection.prepare(
      """
      INSERT INTO registration_lifetimes (registration_id, added_seq, replaced_registration_id)
      VALUES (?, ?, ?)
      """)
    removeRegistration = try connection.prepare(
      "UPDATE registrations SET removed_at_ns = ?, removal_reason = ? WHERE id = ?")
    endLifetime = try connection.prepare(
      "UPDATE registration_lifetimes SET removed_seq = ? WHERE registration_id = ?")
    insertFire = try connection.prepare(
      """
      INSERT INTO fires (id, control_id, events, origin, parent_fire_id, depth, at_ns)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      """)
    insertOutcome = try connection.prepare(
      """
      INSERT INTO outcomes (id, fire_id, registration_id, status, reason, is_async, started_ns,
        duration_ns, error_type, error_message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    insertInteraction = try connection.prepare(
      """
      INSERT INTO interactions (id, control_id, gesture, was_enabled, depth, first_fire_id,
        last_fire_id, fire_count, at_ns, ended_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
  }

  func writeAll() throws {
    try connection.transaction { try wireScreen() }
    while written < budget {
      try connection.transaction {
        for _ in 0..<4_096 where written < budget { try nextInteraction() }
      }
    }
  }

  // MARK: The screen's wiring

  private func control(_ name: String, kind: String) throws -> Int64 {
    let id = base | Int64(insertControlNumber())
    try insertControl.bind(id, at: 1)
    try insertControl.bind(session, at: 2)
    try insertControl.bind(name, at: 3)
    try insertControl.bind(kind, at: 4)
    try insertControl.run()
    return id
  }

  private var controlNumber = 0
  private func insertControlNumber() -> Int {
    controlNumber += 1
    return controlNumber
  }

  private func register(
    _ handler: String, identifier: String?, on control: Int64, events: Int64,
    kind: String = "closure", isAsync: Bool = false, anchor: String? = nil, line: Int,
    replacing replaced: Int64? = nil, failuresPerMille: UInt64 = 0,
    stallsPerHundredThousand: UInt64 = 0, error: (type: String, message: String)? = nil
  ) throws -> FixtureHandler {
    registrationNumber += 1
    let id = base | registrationNumber
    try insertRegistration.bind(id, at: 1)
    try insertRegistration.bind(session, at: 2)
    try insertRegistration.bind(control, at: 3)
    try insertRegistration.bind(events, at: 4)
    try insertRegistration.bind(kind, at: 5)
    try insertRegistration.bind(handler, at: 6)
    try insertRegistration.bind(identifier, at: 7)
    try insertRegistration.bind(isAsync ? 1 : 0, at: 8)
    try insertRegistration.bind(anchor, at: 9)
    try insertRegistration.bind("CheckoutScreen.swift:\(line)", at: 10)
    try insertRegistration.bind(clock, at: 11)
    try insertRegistration.run()
    lifetimeOrder += 1
    try insertLifetime.bind(id, at: 1)
    try insertLifetime.bind(lifetimeOrder, at: 2)
    try insertLifetime.bind(replaced, at: 3)
    try insertLifetime.run()
    return FixtureHandler(
      registration: id, events: events, isAsync: isAsync, failuresPerMille: failuresPerMille,
      stallsPerHundredThousand: stallsPerHundredThousand, error: error)
  }

  private func remove(_ registration: Int64, reason: String) throws {
    try removeRegistration.bind(clock, at: 1)
    try removeRegistration.bind(reason, at: 2)
    try removeRegistration.bind(registration, at: 3)
    try removeRegistration.run()
    lifetimeOrder += 1
    try endLifetime.bind(lifetimeOrder, at: 1)
    try endLifetime.bind(registration, at: 2)
    try endLifetime.run()
  }

  private func wireScreen() throws {
    pay = try control("checkout.pay", kind: "Button")
    giftWrap = try control("checkout.gift-wrap", kind: "Switch")
    promo = try control("checkout.promo-code", kind: "TextField")
    cancel = try control("checkout.cancel", kind: "Button")
    applePay = try control("checkout.apple-pay", kind: "Button")
    express = try control("checkout.express-shipping", kind: "Switch")
    let tap = Self.touchUpInside
    payHandlers = [
      try register("CheckoutScreen.swift:20", identifier: nil, on: pay, events: tap, line: 20),
      try register(
        "charge-card", identifier: "charge-card", on: pay, events: tap, line: 21,
        failuresPerMille: 30, stallsPerHundredThousand: 1,
        error: ("CheckoutScreen.CardDeclined", "card declined by the gateway")),
      try register(
        "submit-order", identifier: "submit-order", on: pay, events: tap, line: 25,
        failuresPerMille: 5, error: ("CheckoutScreen.OrderRejected", "order rejected")),
    ]
    trackPurchase = try register(
      "track-purchase", identifier: "track-purchase", on: pay,
      events: Self.primaryActionTriggered, anchor: "Analytics", line: 30)
    giftHandlers = [
      try register(
        "update-total", identifier: "update-total", on: giftWrap, events: Self.valueChanged,
        line: 40, failuresPerMille: 2,
        error: ("CheckoutScreen.MissingTotal", "missing key 'total' in the cart response")),
      try register(
        "fetch-shipping-quote", identifier: "fetch-shipping-quote", on: giftWrap,
        events: Self.valueChanged, isAsync: true, line: 41, failuresPerMille: 10,
        error: ("CheckoutScreen.ShippingTimeout", "shipping quote timed out after 2000 ms")),
    ]
    promoHandler = try register(
      "validate-promo", identifier: "validate-promo", on: promo, events: Self.editingChanged,
      line: 50)
    cancelHandlers = [
      try register(
        "CancelRouter.dismiss", identifier: "dismiss", on: cancel, events: tap,
        kind: "targetAction", anchor: "CancelRouter", line: 60),
      try register("log-cancel", identifier: "log-cancel", on: cancel, events: tap, line: 61),
    ]
    expressHandler = try register(
      "sync-express", identifier: "sync-express", on: express, events: Self.valueChanged,
      line: 70)
  }

  /// The registry changes partway through: the analytics owner goes (its handler is reported
  /// `ownerReleased` at the next pay tap, then removed), the cancel log is cancelled, and
  /// submit-order is replaced by id from another site.
  private func changeRegistry() throws {
    if !released && written >= budget / 3 { released = true }
    if !cancelledLog && written >= budget / 2 {
      cancelledLog = true
      try remove(cancelHandlers[1].registration, reason: "cancelled")
      cancelHandlers.removeLast()
    }
    if !replacedSubmit && written >= budget / 3 * 2 {
      replacedSubmit = true
      let old = payHandlers[2].registration
      try remove(old, reason: "replaced")
      payHandlers[2] = try register(
        "submit-order", identifier: "submit-order", on: pay, events: Self.touchUpInside,
        line: 88, replacing: old, failuresPerMille: 5,
        error: ("CheckoutScreen.OrderRejected", "order rejected"))
    }
  }

  // MARK: Interactions

  private func nextInteraction() throws {
    try changeRegistry()
    clock += 400_000_000 + Int64(random.next(2_600_000_000))
    switch random.next(1_000) {
    case 0..<700:
      if random.next(1_000) < 3 {
        for _ in 0..<(3 + random.next(3)) where written < budget {
          try tapPay()
          clock += 120_000_000 + Int64(random.next(130_000_000))
        }
      } else {
        try tapPay()
      }
    case 700..<820: try toggle(giftWrap, handlers: giftHandlers)
    case 820..<920: try typePromo("SAVE10")
    case 920..<980:
      try interaction(cancel, gesture: "tap") {
        [
          (Self.touchDown, []), (Self.touchUpInside, cancelHandlers),
          (Self.primaryActionTriggered, []),
        ]
      }
    case 980..<998:
      try interaction(applePay, gesture: "tap") {
        [(Self.touchDown, []), (Self.touchUpInside, []), (Self.primaryActionTriggered, [])]
      }
    default:
      if random.next(10) == 0 { try toggleExpress() } else { try typePromo("SAVE10") }
    }
  }

  private func tapPay() throws {
    let enabled = random.next(1_000) >= 5
    var primary: [FixtureHandler] = []
    if let trackPurchase { primary.append(trackPurchase) }
    try interaction(pay, gesture: "tap", enabled: enabled) {
      [
        (Self.touchDown, []), (Self.touchUpInside, payHandlers),
        (Self.primaryActionTriggered, primary),
      ]
    }
  }

  private func toggle(_ control: Int64, handlers: [FixtureHandler]) throws {
    try interaction(control, gesture: "toggle") { [(Self.valueChanged, handlers)] }
  }

  private func typePromo(_ text: String) throws {
    let handlers = promoHandler.map { [$0] } ?? []
    try interaction(promo, gesture: "type", spacing: 120_000_000) {
      [(Self.editingDidBegin, [])]
        + Array(repeating: (Self.editingChanged, handlers), count: text.count)
        + [(Self.editingDidEnd, [])]
    }
  }

  /// One interaction of `control`: its fires in order, each running its handlers; recorded
  /// when it ends, numbered in that order.
  private func interaction(
    _ control: Int64, gesture: String, enabled: Bool = true, spacing: Int64 = 40_000,
    _ fires: () -> [(events: Int64, handlers: [FixtureHandler])]
  ) throws {
    let began = clock
    var first: Int64 = 0
    var last: Int64 = 0
    let planned = fires()
    for (index, planned) in planned.enumerated() {
      if index > 0 { clock += spacing }
      last = try fire(control, events: planned.events, origin: 0, depth: 1, parent: nil)
      if first == 0 { first = last }
      try run(planned.handlers, fire: last, enabled: enabled)
    }
    try record(
      control, gesture: gesture, enabled: enabled, depth: 1, first: first, last: last,
      count: planned.count, began: began)
  }

  private func record(
    _ control: Int64, gesture: String, enabled: Bool, depth: Int, first: Int64, last: Int64,
    count: Int, began: Int64
  ) throws {
    interactionNumber += 1
    try insertInteraction.bind(base | interactionNumber, at: 1)
    try insertInteraction.bind(control, at: 2)
    try insertInteraction.bind(gesture, at: 3)
    try insertInteraction.bind(enabled ? 1 : 0, at: 4)
    try insertInteraction.bind(Int64(depth), at: 5)
    try insertInteraction.bind(first, at: 6)
    try insertInteraction.bind(last, at: 7)
    try insertInteraction.bind(Int64(count), at: 8)
    try insertInteraction.bind(began, at: 9)
    try insertInteraction.bind(clock, at: 10)
    try insertInteraction.run()
  }

  /// The express switch's handler sends valueChanged again from inside itself, until the
  /// fire past the nesting limit is refused: one interaction, one fire per depth.
  private func toggleExpress() throws {
    guard let expressHandler else { return }
    let began = clock
    var fires: [Int64] = []
    var parent: Int64?
    for depth in 1...(Self.nestingLimit + 1) {
      let fire = try fire(
        express, events: Self.valueChanged, origin: depth == 1 ? 0 : 1, depth: depth,
        parent: parent)
      fires.append(fire)
      parent = fire
      clock += 3_000
    }
    // Reported innermost first: the refused fire, then each handler as it returns.
    guard written < budget else { return }
    try outcome(
      fires[Self.nestingLimit], expressHandler.registration, status: 5, started: clock,
      duration: 0)
    for depth in stride(from: Self.nestingLimit - 1, through: 0, by: -1) where written < budget {
      let duration = Int64(3_000 * (Self.nestingLimit - depth))
      try outcome(
        fires[depth], expressHandler.registration, status: 0, started: clock - duration,
        duration: duration)
    }
    try record(
      express, gesture: "toggle", enabled: true, depth: 1, first: fires[0],
      last: fires[0], count: 1, began: began)
  }

  // MARK: Rows

  private func fire(
    _ control: Int64, events: Int64, origin: Int64, depth: Int, parent: Int64?
  ) throws -> Int64 {
    fireNumber += 1
    let id = base | fireNumber
    try insertFire.bind(id, at: 1)
    try insertFire.bind(control, at: 2)
    try insertFire.bind(events, at: 3)
    try insertFire.bind(origin, at: 4)
    try insertFire.bind(parent, at: 5)
    try insertFire.bind(Int64(depth), at: 6)
    try insertFire.bind(clock, at: 7)
    try insertFire.run()
    return id
  }

  /// Runs `handlers` for `fire` as the core does: each starts where the previous one ended;
  /// a disabled control's fire skips them; a handler whose owner is gone is reported once and
  /// removed.
  private func run(_ handlers: [FixtureHandler], fire: Int64, enabled: Bool) throws {
    for handler in handlers where written < budget {
      guard enabled else {
        try outcome(fire, handler.registration, status: 3, reason: 3, started: clock, duration: 0)
        continue
      }
      if released, handler.registration == trackPurchase?.registration {
        try outcome(fire, handler.registration, status: 2, started: clock, duration: 0)
        try remove(handler.registration, reason: "ownerReleased")
        trackPurchase = nil
        continue
      }
      let failed = random.next(1_000) < handler.failuresPerMille
      let duration = Int64(duration(for: handler))
      try outcome(
        fire, handler.registration, status: failed ? 1 : 0, isAsync: handler.isAsync,
        started: clock, duration: duration, error: failed ? handler.error : nil)
      if !handler.isAsync { clock += duration }
    }
  }

  /// Mostly 2–10 µs; 9% up to half a millisecond; 1% up to 5 ms; an async handler waits
  /// 1–40 ms; a stalling handler sometimes takes 20–40 ms.
  private func duration(for handler: FixtureHandler) -> UInt64 {
    if handler.isAsync { return 1_000_000 + random.next(39_000_000) }
    if random.next(100_000) < handler.stallsPerHundredThousand {
      return 20_000_000 + random.next(20_000_000)
    }
    switch random.next(100) {
    case 0: return 500_000 + random.next(4_500_000)
    case 1..<10: return 10_000 + random.next(490_000)
    default: return 2_000 + random.next(8_000)
    }
  }

  private func outcome(
    _ fire: Int64, _ registration: Int64, status: Int64, reason: Int64? = nil,
    isAsync: Bool = false, started: Int64, duration: Int64,
    error: (type: String, message: String)? = nil
  ) throws {
    outcomeNumber += 1
    try insertOutcome.bind(base | outcomeNumber, at: 1)
    try insertOutcome.bind(fire, at: 2)
    try insertOutcome.bind(registration, at: 3)
    try insertOutcome.bind(status, at: 4)
    try insertOutcome.bind(reason, at: 5)
    try insertOutcome.bind(isAsync ? 1 : 0, at: 6)
    try insertOutcome.bind(started, at: 7)
    try insertOutcome.bind(duration, at: 8)
    try insertOutcome.bind(error?.type, at: 9)
    try insertOutcome.bind(error?.message, at: 10)
    try insertOutcome.run()
    written += 1
  }
}
