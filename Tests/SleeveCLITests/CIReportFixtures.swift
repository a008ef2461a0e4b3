@testable import SleeveCLI

/// Reports for the CI formats' tests: a representative one (goldens), and hostile ones.
enum CIReportFixtures {
  /// 2025-12-01T12:00:00Z, in nanoseconds since the epoch.
  static let timestamp: Int64 = 1_764_590_400_000_000_000

  /// What `diff`, `check` and `flaky` give together: two failures with their site, two advisory
  /// checks (too few samples, flaky), a passed check, in two suites.
  static let representative = CIReport(
    title: "sleeve diff: feature/checkout against main",
    summary: "2 regressions, 1 flaky handler, 1 check with too few samples in 5 checks",
    checks: [
      CICheck(
        suite: "sleeve diff", className: "CheckoutView", name: "submit: error rate",
        outcome: .failed(message: "error rate 4.0% (18/450) against 1.0% (91/9,120) on main"),
        evidence: [
          "baseline: branch=main, last 20 sessions, 9,120 outcomes",
          "candidate: 1 session (run 7, attempt 1), 450 outcomes",
          "method: one-sided two-proportion z-test, p = 0.0001, Holm-adjusted p = 0.0004",
          "minimum effect: +1.0 point and ×1.5",
        ],
        site: SourceSite(file: "Sources/App/CheckoutView.swift", line: 42)),
      CICheck(
        suite: "sleeve diff", className: "CheckoutView", name: "submit: new failure type",
        outcome: .failed(message: "PaymentError.declined: never seen on main"),
        evidence: ["first seen: session 41 (run 7), 3 times", "baseline: 20 sessions, none"],
        site: SourceSite(file: "Sources/App/CheckoutView.swift", line: 42)),
      CICheck(
        suite: "sleeve diff", className: "CartView", name: "addItem: p99 latency",
        outcome: .advisory(message: "insufficient: 12 samples, need 30"),
        evidence: ["smallest change these samples could detect at 80% power: +38 ms"],
        site: SourceSite(file: "Sources/App/CartView.swift", line: nil)),
      CICheck(
        suite: "sleeve diff", className: "CartView", name: "checkout: error rate",
        outcome: .passed,
        evidence: ["error rate 0.2% (1/450) against 0.3% (27/9,120) on main: unchanged"],
        site: nil),
      CICheck(
        suite: "sleeve flaky", className: "SearchField", name: "search: flaky",
        outcome: .advisory(message: "flaky: quarantined, not gating"),
        evidence: ["commit 3f2a9c1: 2 of 5 sessions failed, 3 passed", "flake rate 40%"],
        site: SourceSite(file: "Sources/App/SearchField.swift", line: 17)),
    ],
    markdownSummary: "## sleeve diff\n\n2 regressions, 1 flaky handler\n")

  /// Strings built to break each format: every kind of control, CDATA's end, quotes and markup
  /// (also fused with a combining mark), emoji and flags, bidirectional controls, the XML
  /// noncharacters, every line break, and workflow commands after a line break.
  static let hostileStrings: [String] = [
    "ctl\u{00}\u{01}\u{07}\u{08}\t\u{0B}\u{0C}\u{1B}[31m\u{1B}]0;PWNED\u{07}\u{1F}\u{7F}end",
    "cdata ]]> end <![CDATA[x]]> ]]&gt;",
    "quotes \" ' \"\u{0338} '\u{0301} <tag a='x' b=\"y\">&amp; &#0; &bogus; </testcase>",
    "emoji 👩‍👩‍👧‍👦 🇺🇦 e\u{0301} 𝄞",
    "rtl \u{200F}\u{200E}\u{202E}evil\u{202C}\u{2066}x\u{2069} \u{061C}",
    // Swift's lexer refuses U+FDD0 in a literal; XML 1.0 allows it (only U+FFFE/U+FFFF not).
    "noncharacters \u{FFFE}\u{FFFF} " + String(Unicode.Scalar(0xFDD0)!) + " \u{10FFFF}",
    "lines a\nb\r\nc\rd \u{85} \u{2028} \u{2029}",
    "workflow \n::stop-commands::x\n::add-mask::secret %0A %25 %3A , : :: ##[error]v1",
    "C1 \u{9B}31m \u{80} \u{9F}",
  ]

  /// A report whose every text field holds `text` (names, messages, evidence, site, summary).
  static func report(holding text: String) -> CIReport {
    let site = SourceSite(file: "Sources/" + text + ".swift", line: 7)
    return CIReport(
      title: "title " + text, summary: "summary " + text,
      checks: [
        CICheck(
          suite: "suite " + text, className: "class " + text, name: "failed " + text,
          outcome: .failed(message: "message " + text), evidence: ["evidence", text, "end"],
          site: site),
        CICheck(
          suite: "suite " + text, className: "class " + text, name: "advisory " + text,
          outcome: .advisory(message: "advisory " + text), evidence: [text], site: site),
        CICheck(
          suite: "other " + text, className: "class " + text, name: "passed " + text,
          outcome: .passed, evidence: [text, text], site: nil),
      ],
      markdownSummary: text)
  }
}
