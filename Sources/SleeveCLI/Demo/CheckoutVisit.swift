import SleeveCore

/// One user's visit to the checkout screen after the replayed traffic: real taps, toggles and
/// typing, through code written the ways closure handlers go wrong, so `sleeve lint` finds
/// each of its checks once:
///
/// - handler-accumulation: the address form is configured twice, so its save handler (no
///   `id:`) is added twice and runs twice per tap;
/// - silent-replacement: the sheet and the coordinator both register `id: "close"` on the
///   close button, each with itself as owner, so whichever registers last silently wins;
/// - mixed-wiring: a closure joins the cancel button's target-action on `touchUpInside`;
/// - dead-interaction: the Apple Pay button is wired to `valueChanged`, which a tap never
///   sends, and the user taps it;
/// - rage-interaction: three taps on Apply, a person's 150 ms apart, while its async handler
///   waits 400 ms on the network;
/// - error-interaction: an unknown postcode makes the address lookup throw;
/// - main-thread-stall: saving the card encrypts it synchronously (20 ms, once);
/// - nesting-pressure: express shipping's handler sends its own event again, until the
///   nesting limit (`Control.nestingLimit`, left at its default) refuses it.
///
/// The orphaned handler is the replayed traffic's own `track-purchase`, whose analytics owner
/// is released while the pay button keeps firing. Every control but Apply gets at most one
/// interaction here, so Apply is the only rage burst; the owners live as long as the visit, so
/// no handler of the visit is orphaned. Its times are simulated (``SimulatedTime``): the
/// encryption, the network and the person's pauses take no real time.
@MainActor
final class CheckoutVisit {
  /// The address form, configured once from `viewDidLoad` and again from `viewWillAppear`.
  @MainActor final class AddressForm {
    var saves = 0

    /// Wires the save button. Calling it again adds the handler again: no `id:` replaces it.
    func configure(save: Button) {
      save.on(.touchUpInside, owner: self) { form, _ in form.saves += 1 }
    }
  }

  /// The checkout sheet, which closes itself on the close button.
  @MainActor final class CheckoutSheet {
    var closes = 0

    func wire(close: Button) {
      close.on(.touchUpInside, id: "close", owner: self) { sheet, _ in sheet.closes += 1 }
    }
  }

  /// The coordinator, which routes the close button back to the cart with the same id.
  @MainActor final class CheckoutCoordinator {
    var routes: [String] = []

    func wire(close: Button) {
      close.on(.touchUpInside, id: "close", owner: self) { coordinator, _ in
        coordinator.routes.append("cart")
      }
    }
  }

  struct UnknownPostcode: Error, CustomStringConvertible {
    let postcode: String
    var description: String { "no address found for postcode \(postcode)" }
  }

  private let form = AddressForm()
  private let sheet = CheckoutSheet()
  private let coordinator = CheckoutCoordinator()
  private var confirmations = 0
  private let time: SimulatedTime
  private let simulation: Simulation

  /// A visit whose controls report to `time`, its handlers taking `simulation`'s time.
  init(time: SimulatedTime, simulation: Simulation) {
    self.time = time
    self.simulation = simulation
  }

  /// Runs the visit; `cancel` is the screen's cancel button, already wired by target-action.
  func run(cancel: Button) async {
    let postcode = TextField(name: "checkout.postcode", observer: time)
    postcode.on(.editingDidEnd, id: "look-up-address") { field in
      guard field.text.hasPrefix("SW1") else { throw UnknownPostcode(postcode: field.text) }
    }
    postcode.type("00000")

    let save = Button(name: "checkout.save-address", observer: time)
    form.configure(save: save)  // viewDidLoad
    form.configure(save: save)  // viewWillAppear: the same site again
    save.tap()

    let express = Switch(name: "checkout.express-shipping", observer: time)
    express.on(.valueChanged, id: "sync-express") { toggle in
      // Announces the change again to keep the summary in step: the announcement runs this
      // handler again, and so on until the nesting limit refuses a fire.
      toggle.sendActions(for: .valueChanged)
    }
    express.toggle()

    let saveCard = Switch(name: "checkout.save-card", observer: time)
    saveCard.on(.valueChanged, id: "encrypt-card") { [simulation] _ in
      simulation.takes(.milliseconds(20))  // business logic on the main thread: one frame lost
    }
    saveCard.toggle()

    let apply = Button(name: "checkout.apply-promo", observer: time)
    apply.on(.touchUpInside, id: "apply-promo") { [simulation] _ async throws in
      simulation.takes(.milliseconds(400))  // the network: nothing shows meanwhile
    }
    // A person's taps, 150 ms apart: lint reads taps closer together as a machine's (a test's
    // loop), never as rage.
    for tap in 0..<3 {
      if tap > 0 { time.pause(.milliseconds(150)) }
      apply.tap()
    }
    await apply.waitUntilIdle()

    let applePay = Button(name: "checkout.apple-pay", observer: time)
    // Wired to a switch's event, which a button's tap never sends.
    applePay.on(.valueChanged, id: "pay-with-apple-pay") { _ in }
    applePay.tap()

    let close = Button(name: "checkout.close", observer: time)
    sheet.wire(close: close)
    coordinator.wire(close: close)
    close.tap()

    cancel.on(.touchUpInside, id: "confirm-cancel") { [self] _ in confirmations += 1 }
    cancel.tap()
  }
}
