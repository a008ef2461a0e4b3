/// One judged check as CI systems show it: one JUnit `<testcase>`, and one GitHub annotation
/// when it did not pass (or is a notice).
///
/// Every field holds raw text (a recorded name as recorded, evidence as a list of lines): each
/// renderer escapes for its own format, so a field must never be escaped beforehand. Lines are
/// structure, never text: a message and each evidence line are one line each, so a line break
/// inside one is recorded text (an error message's), which a one-line format shows escaped.
///
/// ```swift
/// CICheck(
///   suite: "sleeve diff", className: "CheckoutView", name: "submit: error rate",
///   outcome: .failed(message: "error rate 4.0% against 1.0% on main"),
///   evidence: ["baseline: 20 sessions, 9,120 outcomes", "candidate: 1 session, 450 outcomes"],
///   site: SourceSite(file: "Sources/App/CheckoutView.swift", line: 42))
/// ```
struct CICheck: Equatable, Sendable {
  /// How the check ended, and how each format shows it.
  enum Outcome: Equatable, Sendable {
    /// The check held: a JUnit testcase with no child but its evidence; no annotation.
    case passed
    /// A regression or a breach: JUnit `<failure>`, GitHub `::error`.
    case failed(message: String)
    /// Counted as not gating (quarantined or flaky, too few samples): JUnit
    /// `<skipped message=…>`, GitHub `::warning`.
    case advisory(message: String)
    /// Worth knowing, never gating (a lint note): a JUnit testcase that passes, the message
    /// then the evidence in its `<system-out>`; GitHub `::notice`.
    case notice(message: String)
  }

  /// The command that judged it, e.g. `sleeve diff`, `sleeve check`, `sleeve flaky`.
  var suite: String
  /// What the check is about, e.g. the control's name, `CheckoutView`.
  var className: String
  /// The check itself, e.g. `submit: error rate`.
  var name: String
  /// How it ended.
  var outcome: Outcome
  /// The evidence, one entry a line: the numbers, the method, the sessions. The JUnit failure
  /// body (or `<system-out>`) and the GitHub annotation's message after its first line.
  var evidence: [String]
  /// Where the handler was registered, when known: the annotation's `file=` and `line=`.
  var site: SourceSite?
}

/// A place in the source: a file path (relative to the repository root for GitHub to attach
/// an annotation to the diff) and, when known, a line (1-based).
struct SourceSite: Equatable, Sendable {
  /// The file's path.
  var file: String
  /// The 1-based line; `nil`, zero or negative when unknown (then no line is given).
  var line: Int?
}

extension SourceSite {
  /// A site as the recorder stores it (`#fileID:#line`, e.g. `App/CheckoutView.swift:42`): the
  /// text after the last colon is the line when it is a positive decimal number of at most nine
  /// digits; otherwise the whole text is the file and the line is unknown.
  init(recorded site: String) {
    let scalars = Array(site.unicodeScalars)
    guard let colon = scalars.lastIndex(of: ":") else {
      self.init(file: site, line: nil)
      return
    }
    let digits = scalars[(colon + 1)...]
    guard (1...9).contains(digits.count), digits.allSatisfy({ ("0"..."9").contains($0) }),
      let line = Int(String(String.UnicodeScalarView(digits))), line > 0, colon > 0
    else {
      self.init(file: site, line: nil)
      return
    }
    self.init(file: String(String.UnicodeScalarView(scalars[..<colon])), line: line)
  }

  /// The line when it is a real one (1 or more), for the formats that need a positive number.
  var knownLine: Int? { line.flatMap { $0 > 0 ? $0 : nil } }
}

/// A whole report as CI systems show it: a title, a summary line, the checks, and the Markdown
/// job summary.
///
/// `diff`, `check --baseline` and `flaky` map their results to this; `JUnitXML` and
/// `GitHubWorkflowCommands` render it.
struct CIReport: Equatable, Sendable {
  /// The report's title, e.g. `sleeve diff: feature/checkout against main`.
  var title: String
  /// One line, e.g. `2 regressions, 1 flaky handler in 40 checks`.
  var summary: String
  /// The checks, in the order they are shown.
  var checks: [CICheck]
  /// Already-rendered Markdown, appended to the file `$GITHUB_STEP_SUMMARY` names.
  var markdownSummary: String

  /// How many checks failed.
  var failedCount: Int { checks.count { if case .failed = $0.outcome { true } else { false } } }
  /// How many checks were advisory.
  var advisoryCount: Int {
    checks.count { if case .advisory = $0.outcome { true } else { false } }
  }
  /// How many checks were notices.
  var noticeCount: Int {
    checks.count { if case .notice = $0.outcome { true } else { false } }
  }
}
