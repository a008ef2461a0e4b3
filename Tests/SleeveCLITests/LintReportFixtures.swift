import SleeveQuery

@testable import SleeveCLI

/// Lint reports for the renderers' tests, made by hand (not by the analysis): one of each
/// severity and evidence kind, one with hostile names, one clean.
enum LintReportFixtures {
  /// An error (accumulation), two warnings (a stall, an orphaned handler), a note (a rage burst,
  /// a control's own finding), and a suppressed silent replacement; 3 sessions, 1 before 0004.
  static let representative = LintReport(
    findings: [
      LintFinding(
        check: .accumulation, control: "CheckoutView", handler: "Checkout.swift:42",
        site: "CheckoutKit/Checkout.swift:42",
        message: "registered 3 times, live at once: runs 3 times per touchUpInside",
        evidence: [.init("registrations", .count(3)), .init("live at once", .count(3))],
        sessions: [1, 2]),
      LintFinding(
        check: .mainThreadStall, control: "CartView", handler: "reload",
        site: "CheckoutKit/Cart.swift:17", message: "p99 20.50 ms over the 16.70 ms frame",
        evidence: [
          .init("p99", .nanoseconds(20_500_000)), .init("max", .nanoseconds(31_000_000)),
          .init("n", .count(120)),
        ], sessions: [2]),
      LintFinding(
        check: .orphanedHandler, control: "SearchField", handler: "search",
        site: "CheckoutKit/Search.swift:8",
        message: "owner released; its control fired 8 more times",
        evidence: [.init("missed", .share(0.25)), .init("owner", .text("SearchController"))],
        sessions: [3]),
      LintFinding(
        check: .rageInteraction, control: "PayButton", handler: nil, site: nil,
        message: "4 interactions within 800.00 ms",
        evidence: [.init("interactions", .count(4)), .init("window", .nanoseconds(800_000_000))],
        sessions: [3]),
    ],
    suppressed: [
      LintFinding(
        check: .silentReplacement, control: "CheckoutView", handler: "submit",
        site: "CheckoutKit/Checkout.swift:50", otherSites: ["CheckoutKit/Checkout.swift:42"],
        message: "id submit taken over from another site",
        evidence: [.init("replacements", .count(2))], sessions: [1],
        suppression: LintSuppressionMatch(reason: "by design, #31", actor: "oncall"))
    ],
    checks: LintCheck.allCases, sessions: 3, sessionsWithoutInteractionData: 1,
    options: LintOptions())

  /// No finding: 2 sessions, every check ran.
  static let clean = LintReport(
    findings: [], suppressed: [], checks: LintCheck.allCases, sessions: 2,
    sessionsWithoutInteractionData: 0, options: LintOptions())

  /// A report of one finding of `severity` (`--fail-on` tests), suppressed or not.
  static func single(_ severity: LintSeverity, suppressed: Bool = false) -> LintReport {
    let check = LintCheck.allCases.first { $0.severity == severity } ?? .accumulation
    let finding = LintFinding(
      check: check, control: "C", handler: "h", site: "M/F.swift:1", message: "m",
      evidence: [], sessions: [1],
      suppression: suppressed ? LintSuppressionMatch(reason: "r", actor: nil) : nil)
    return LintReport(
      findings: suppressed ? [] : [finding], suppressed: suppressed ? [finding] : [],
      checks: LintCheck.allCases, sessions: 1, sessionsWithoutInteractionData: 0,
      options: LintOptions())
  }

  /// A report whose every recorded text (control, handler, site, other sites, message, text
  /// evidence, suppression) holds `text`.
  static func hostile(_ text: String) -> LintReport {
    let finding = { (check: LintCheck, suppression: LintSuppressionMatch?) in
      LintFinding(
        check: check, control: "control " + text, handler: "handler " + text,
        site: "Sources/" + text + ".swift:7", otherSites: ["other " + text],
        message: "message " + text,
        evidence: [.init("name " + text, .text("value " + text)), .init("n", .count(1))],
        sessions: [1], suppression: suppression)
    }
    return LintReport(
      findings: [
        finding(.accumulation, nil), finding(.mixedWiring, nil),
        LintFinding(
          check: .rageInteraction, control: "control " + text, handler: nil, site: nil,
          message: "message " + text, evidence: [], sessions: [1]),
      ],
      suppressed: [finding(.silentReplacement, LintSuppressionMatch(reason: text, actor: text))],
      checks: LintCheck.allCases, sessions: 1, sessionsWithoutInteractionData: 1,
      options: LintOptions())
  }

  /// Names built to break every format: terminal escapes, markup, line breaks, workflow
  /// commands and their escapes, CSV's quote and formula.
  static let hostileNames: [String] = [
    "ansi \u{1B}[31mred\u{1B}]0;PWNED\u{07} \u{9B}2J",
    "markup <script>alert(1)</script> & \"q\" 'a' ]]>",
    "lines a\nb\r\nc\rd \u{2028}",
    "workflow \n::error::forged %0A %25 :: , title=x",
    "csv \",\"=HYPERLINK(\"x\")",
  ]
}
