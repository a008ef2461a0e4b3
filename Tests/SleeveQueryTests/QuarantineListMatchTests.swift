import SleeveQuery
import Testing

/// The list is matched against a handler in one place (`[QuarantineEntry].entry(for:site:)`),
/// which `sleeve flaky` and the gate both use: the first entry that matches, by name or site.
@Suite("Quarantine list matching")
struct QuarantineListMatchTests {
  static let submit = GroupKey.handler(control: "CheckoutView", name: "submit")
  static let list = [
    QuarantineEntry(handler: "refund", control: nil, reason: "other handler", actor: nil),
    QuarantineEntry(
      handler: "submit", control: "PaymentView", reason: "other control", actor: nil),
    QuarantineEntry(handler: "Checkout.swift:10", control: nil, reason: "by site", actor: nil),
    QuarantineEntry(handler: "submit", control: nil, reason: "by name", actor: nil),
  ]

  @Test("the first matching entry is returned: by site before a later entry by name")
  func firstMatch() {
    #expect(Self.list.entry(for: Self.submit, site: "Checkout.swift:10")?.reason == "by site")
    #expect(Self.list.entry(for: Self.submit, site: nil)?.reason == "by name")
  }

  @Test("no entry matches a handler the list does not name, nor a key that is not a handler")
  func noMatch() {
    #expect(
      Self.list.entry(for: .handler(control: "CheckoutView", name: "pay"), site: nil) == nil)
    #expect(Self.list.entry(for: .name("submit"), site: nil) == nil)
    #expect([QuarantineEntry]().entry(for: Self.submit, site: "Checkout.swift:10") == nil)
  }
}
