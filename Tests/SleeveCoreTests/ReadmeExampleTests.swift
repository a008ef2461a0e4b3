import Foundation
import SleeveCore
import Testing

@MainActor
@Suite("README")
struct ReadmeExampleTests {
  @Test("the README's core example runs and does what its comments say")
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

  @Test("the README shows exactly the example this suite runs")
  func readmeShowsTheTestedExample() throws {
    let testFile = URL(fileURLWithPath: #filePath)
    let root = testFile.deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let source = try String(contentsOf: testFile, encoding: .utf8)
    let tested = try #require(ReadmeSnippet.between("// README:begin", "// README:end", in: source))
    let shown = try #require(ReadmeSnippet.swiftBlock(after: "## Using the core", in: readme))
    #expect(ReadmeSnippet.dedented(tested) == ReadmeSnippet.dedented(shown))
  }
}

/// Extracts and normalizes the example code from the README and from this file.
enum ReadmeSnippet {
  static func between(_ begin: String, _ end: String, in text: String) -> [String]? {
    let lines = text.components(separatedBy: "\n")
    guard
      let start = lines.firstIndex(where: {
        $0.trimmingCharacters(in: .whitespaces) == begin
      }),
      let stop = lines[start...].firstIndex(where: {
        $0.trimmingCharacters(in: .whitespaces) == end
      })
    else { return nil }
    return Array(lines[(start + 1)..<stop])
  }

  /// The first ```swift block after `heading`.
  static func swiftBlock(after heading: String, in markdown: String) -> [String]? {
    guard let range = markdown.range(of: heading) else { return nil }
    return between("```swift", "```", in: String(markdown[range.upperBound...]))
  }

  static func dedented(_ lines: [String]) -> [String] {
    let indents = lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
      .map { $0.prefix { $0 == " " }.count }
    let indent = indents.min() ?? 0
    return lines.map { $0.count >= indent ? String($0.dropFirst(indent)) : "" }
  }
}
