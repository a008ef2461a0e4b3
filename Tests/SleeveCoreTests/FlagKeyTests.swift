import SleeveCore
import Testing

/// The flag-key rule, and what dispatch does with a key that breaks it.
@MainActor
@Suite("Flag keys")
struct FlagKeyTests {
  @Test(
    "valid keys: letters, digits, '.', '_', '-', starting with a letter or digit, up to 128",
    arguments: [
      "new-checkout", "payments.v2", "checkout_redesign", "A1", "9lives",
      String(repeating: "k", count: 128),
    ])
  func validKeys(key: String) {
    #expect(FlagKey.problem(with: key) == nil)
  }

  @Test(
    "invalid keys are named with the rule they break",
    arguments: [
      ("", "cannot be empty"), (String(repeating: "k", count: 129), "at most 128"),
      ("-x", "starts with a letter or a digit"), ("checkout:v2", "only ASCII"),
      ("new checkout", "only ASCII"), ("flag\u{0338}", "only ASCII"), ("ключ", "starts with"),
    ])
  func invalidKeys(key: String, rule: String) {
    let problem = FlagKey.problem(with: key)
    #expect(problem?.contains(rule) == true, "\(key): \(problem ?? "valid")")
  }

  @Test("a handler gated by an invalid key never runs its primary closure: off, invalidKey")
  func invalidKeysServeOff() {
    let observer = RecordingObserver()
    let flags = InMemoryFlagProvider(["checkout:v2": .enabled, "checkout-v2": .enabled])
    let button = Button(name: "b", observer: observer, flags: flags)
    var ran: [String] = []
    button.on(.touchUpInside, flag: "checkout:v2", fallback: { _ in ran.append("old") }) { _ in
      ran.append("new")
    }
    button.on(.touchUpInside, flag: "checkout-v2", fallback: { _ in ran.append("old") }) { _ in
      ran.append("new")
    }
    button.sendActions(for: .touchUpInside)
    #expect(ran == ["old", "new"])
    let evaluations = observer.outcomes.compactMap(\.flag)
    #expect(evaluations.map(\.reason) == ["invalidKey", "enabled"])
    #expect(evaluations.map(\.variant) == [.off, .on])
  }
}
