import Foundation
import SleeveCore
import SleeveTestSupport
import Testing

@MainActor
@Suite("The core reference page's example")
struct ReadmeExampleTests {
  @Test("the core page's example runs and does what its comments say")
  func readmeExampleRuns() {
    // README:begin
    final class CheckoutModel {
      var steps: [String] = []
      var giftWrap = false
    }

    let model = CheckoutModel()
    let flags = InMemoryFlagProvider(["new-checkout": .enabled])
    let pay = Button(name: "checkout.pay", flags: flags)
    let giftWrap = Switch(name: "checkout.gift-wrap")

    // Handlers accumulate and run in registration order. The owner is held weakly and
    // passed in strongly: no [weak self], no retain cycle.
    pay.on(.touchUpInside, owner: model) { model, _ in model.steps.append("validate") }
    pay.on(.touchUpInside, id: "submit", owner: model) { model, _ in
      model.steps.append("submit")
    }

    // The same id replaces a handler in place, as UIAction identifiers do.
    pay.on(.touchUpInside, id: "submit", owner: model) { model, _ in
      model.steps.append("submit v2")
    }

    // Handlers get the control with its own type: a Switch handler reads isOn directly.
    giftWrap.on(.valueChanged, owner: model) { model, toggle in model.giftWrap = toggle.isOn }

    // A flag-gated handler runs its fallback once the flag is rolled back.
    var flows: [String] = []
    pay.on(.primaryActionTriggered, flag: "new-checkout", fallback: { _ in flows.append("old") }) {
      _ in flows.append("new")
    }

    pay.tap()  // touchDown, touchUpInside, primaryActionTriggered
    giftWrap.toggle()
    flags.set("new-checkout", to: .rolledBack(reason: "p99 over budget"))
    pay.sendActions(for: .primaryActionTriggered)
    // model.steps == ["validate", "submit v2"], model.giftWrap == true, flows == ["new", "old"]
    // README:end
    #expect(model.steps == ["validate", "submit v2"])
    #expect(model.giftWrap)
    #expect(flows == ["new", "old"])
  }

  @Test("the core page shows exactly the example this suite runs")
  func readmeShowsTheTestedExample() throws {
    let (tested, shown) = try ReadmeSnippet.pair(
      testFile: #filePath, marker: "README", heading: "## Using the core",
      in: "docs/guide/core.md")
    #expect(tested == shown)
  }
}
