import SleeveQuery

/// A `LintReport` in the shared formats (`sleeve lint --format table|json|csv|markdown`): the
/// one home of how a finding, its evidence and the report's summary read.
///
/// Every text is raw recorded text until the format writes it: the table escapes with
/// `TerminalText`, Markdown with `MarkdownText`, CSV quotes with `CSVText`, JSON with its
/// own quoting; so no recorded name can move the cursor, forge a row, or become markup.
///
/// ```swift
/// let text = LintReportText.render(report, failOn: .error, format: .table, display: .plain)
/// ```
enum LintReportText {
  /// The most sessions a table or Markdown line names for one finding (JSON and CSV name all).
  static let shownSessions = 12

  /// The first line: the sessions examined, the checks that ran, the active findings by
  /// severity, the suppressed ones, and the exit code `failOn` gives.
  static func summary(_ report: LintReport, failOn: LintSeverity) -> String {
    let counts = LintSeverity.allCases.map { severity in
      let count = report.findings.count { $0.severity == severity }
      return plural(count, severity.rawValue)
    }
    let total = LintCheck.allCases.count
    let checks =
      report.checks.count == total
      ? plural(total, "check")
      : "\(report.checks.count) of \(plural(total, "check"))"
    return "sleeve lint: " + plural(report.sessions, "session") + " examined, " + checks + ": "
      + counts.joined(separator: ", ") + ", \(report.suppressed.count) suppressed. Exit "
      + "\(exitCode(report, failOn: failOn).rawValue) (--fail-on \(failOn.rawValue))."
  }

  /// Lines under the summary: the sessions recorded before schema 0004, when there are any.
  static func notes(_ report: LintReport) -> [String] {
    prunedNote(report) + olderSchemaNote(report)
  }

  /// The sessions whose raw rows were pruned, when there are any: no check ran for them.
  private static func prunedNote(_ report: LintReport) -> [String] {
    let pruned = report.sessionsRawPruned
    guard pruned > 0 else { return [] }
    let which =
      pruned == report.sessions
      ? (pruned == 1 ? "The session's" : "All \(pruned) sessions'")
      : "\(pruned) of the \(plural(report.sessions, "session"))'"
    return [
      which + " raw rows were pruned (sleeve prune), so no check ran for "
        + (pruned == 1 ? "it; only its" : "them; only their") + " summaries remain."
    ]
  }

  private static func olderSchemaNote(_ report: LintReport) -> [String] {
    let without = report.sessionsWithoutInteractionData
    guard without > 0 else { return [] }
    let skipped = report.checks.filter(\.needsInteractionData).map(\.id)
    let which =
      without == report.sessions
      ? (without == 1 ? "The session was" : "All \(without) sessions were")
      : "\(without) of the \(plural(report.sessions, "session")) "
        + (without == 1 ? "was" : "were")
    return [
      which + " recorded before schema 0004 (interactions and registration lifetimes), so the "
        + "interaction and lifetime checks did not run for "
        + (without == 1 ? "it" : "them")
        + (skipped.isEmpty ? "." : ": " + skipped.joined(separator: ", ") + ".")
    ]
  }

  /// 0 when no active finding is at `failOn` or more serious, else 1.
  static func exitCode(_ report: LintReport, failOn: LintSeverity) -> ExitCode {
    report.count(atLeast: failOn) > 0 ? .breach : .success
  }

  /// The report in `format`, ending with a line feed.
  static func render(
    _ report: LintReport, failOn: LintSeverity, format: OutputFormat, display: TerminalDisplay
  ) -> String {
    let header = [summary(report, failOn: failOn)] + notes(report)
    switch format {
    case .json: return json(report, failOn: failOn).text + "\n"
    case .csv: return csv(report)
    case .markdown: return markdown(report, failOn: failOn)
    case .table:
      var out: String
      if report.findings.isEmpty {
        out =
          header.map { lines($0, indent: "", display: display) }.joined()
          + "\nNo active findings.\n"
      } else {
        out = TableLayout.render(table(report.findings), header: header, display: display)
        out += "\n"
        for (number, finding) in report.findings.enumerated() {
          out += lines("\(number + 1). " + heading(finding), indent: "", display: display)
          for line in evidenceLines(finding) { out += lines(line, indent: "   ", display: display) }
        }
      }
      if let footer = suppressedFooter(report) {
        out += "\n" + lines(footer, indent: "", display: display)
      }
      return out
    }
  }

  /// `text` escaped for a terminal after `indent`, wrapped at spaces to the terminal's width
  /// (continuation lines indented as the first) unless the layout is wide; each line ends
  /// with a line feed.
  static func lines(_ text: String, indent: String, display: TerminalDisplay) -> String {
    let escaped = TerminalText.escaped(text)
    guard display.layout != .wide, let width = display.width else {
      return indent + escaped + "\n"
    }
    let room = max(width - indent.count, TerminalDisplay.minimumWidth)
    return CellText.wrapped(escaped, width: room).map { indent + $0 + "\n" }.joined()
  }

  /// The table of the active findings (``NumberedFinding/columns``): number, severity, check,
  /// control, handler, site, message.
  static func table(_ findings: [LintFinding]) -> Table {
    NumberedFinding.columns.table(NumberedFinding.numbered(findings))
  }

  /// `handler-accumulation · CheckoutView · submit (Checkout.swift:42)`.
  static func heading(_ finding: LintFinding) -> String {
    [finding.check.id, finding.control, finding.handler].compactMap { $0 }
      .joined(separator: " · ") + (finding.site.map { " (\($0))" } ?? "")
  }

  /// The lines under a finding: its evidence, the other sites, the sessions, the suppression
  /// (when one covers it) and the check's explanation.
  static func evidenceLines(_ finding: LintFinding) -> [String] {
    var lines: [String] = []
    if !finding.evidence.isEmpty {
      lines.append(
        "evidence: "
          + finding.evidence.map { "\($0.name) \(display($0.value))" }.joined(separator: ", "))
    }
    if !finding.otherSites.isEmpty {
      lines.append("other sites: " + finding.otherSites.joined(separator: ", "))
    }
    let sessions = finding.sessions.prefix(shownSessions).map(String.init)
    lines.append(
      (finding.sessions.count == 1 ? "session: " : "sessions: ")
        + sessions.joined(separator: ", ")
        + (finding.sessions.count > shownSessions
          ? " and \(finding.sessions.count - shownSessions) more" : ""))
    if let suppression = finding.suppression {
      lines.append(
        "suppressed: " + suppression.reason + (suppression.actor.map { " (by \($0))" } ?? ""))
    }
    lines.append("why: " + finding.check.explanation)
    return lines
  }

  /// A value as people read it: `3`, `20.50 ms`, `25.00%`, a text as recorded.
  static func display(_ value: LintEvidence.Value) -> String {
    switch value {
    case .count(let count): String(count)
    case .nanoseconds(let nanoseconds): Formatting.duration(Double(nanoseconds))
    case .share(let share): Formatting.percent(share)
    case .text(let text): text
    }
  }

  /// A value as machines read it (CSV): the count, the nanoseconds and the share as plain
  /// numbers, a text as recorded.
  static func raw(_ value: LintEvidence.Value) -> String {
    switch value {
    case .count(let count): String(count)
    case .nanoseconds(let nanoseconds): String(nanoseconds)
    case .share(let share): Formatting.raw(share)
    case .text(let text): text
    }
  }

  /// `1 suppressed finding is not shown: --format json lists it.`, or `nil` when none is.
  static func suppressedFooter(_ report: LintReport) -> String? {
    let count = report.suppressed.count
    guard count > 0 else { return nil }
    return plural(count, "suppressed finding") + (count == 1 ? " is" : " are")
      + " not shown: --format json lists " + (count == 1 ? "it" : "them")
      + ", 'sleeve lint suppressions' the suppressions."
  }

  /// One CSV row per finding, active ones first, then the suppressed (their `suppressed`
  /// column holds the reason); evidence as `name=value; …` in one column, raw values
  /// (``NumberedFinding/columns``).
  static func csv(_ report: LintReport) -> String {
    NumberedFinding.columns.table(
      NumberedFinding.numbered(report.findings + report.suppressed), for: .csv
    ).csv
  }

  /// A Markdown section: the summary in bold, the notes, the findings' table, then each
  /// finding's evidence as a list.
  static func markdown(_ report: LintReport, failOn: LintSeverity) -> String {
    var out =
      "### sleeve lint\n\n**" + MarkdownText.escaped(summary(report, failOn: failOn))
      + "**\n\n"
    for note in notes(report) { out += MarkdownText.escaped(note) + "\n\n" }
    if report.findings.isEmpty {
      out += "No active findings.\n"
    } else {
      out += table(report.findings).markdown + "\n"
      for (number, finding) in report.findings.enumerated() {
        out += "\(number + 1). " + MarkdownText.escaped(heading(finding)) + "\n"
        for line in evidenceLines(finding) { out += "   - " + MarkdownText.escaped(line) + "\n" }
      }
    }
    if let footer = suppressedFooter(report) { out += "\n" + MarkdownText.escaped(footer) + "\n" }
    return out
  }

  /// The report as JSON, with stable keys (added to, never renamed): the summary numbers, the
  /// options, then the active and the suppressed findings.
  static func json(_ report: LintReport, failOn: LintSeverity) -> JSONValue {
    let options = report.options
    return .object([
      ("sessions", .integer(report.sessions)),
      ("sessionsWithoutInteractionData", .integer(report.sessionsWithoutInteractionData)),
      ("sessionsRawPruned", .integer(report.sessionsRawPruned)),
      ("checks", .array(report.checks.map { .string($0.id) })),
      (
        "disabled",
        .array(LintCheck.allCases.filter(options.disabled.contains).map { .string($0.id) })
      ),
      ("failOn", .string(failOn.rawValue)),
      ("exitCode", .integer(exitCode(report, failOn: failOn).rawValue)),
      (
        "options",
        .object([
          ("frameBudgetNs", .int(options.frameBudgetNanoseconds)),
          ("rageCount", .integer(options.rageCount)),
          ("rageWindowNs", .int(options.rageWindowNanoseconds)),
          ("rageMinimumGapNs", .int(options.rageMinimumGapNanoseconds)),
        ])
      ),
      (
        "counts",
        .object(
          LintSeverity.allCases.map { severity in
            (severity.rawValue, .integer(report.findings.count { $0.severity == severity }))
          } + [("suppressed", .integer(report.suppressed.count))])
      ),
      ("findings", NumberedFinding.columns.json(NumberedFinding.numbered(report.findings))),
      ("suppressed", NumberedFinding.columns.json(NumberedFinding.numbered(report.suppressed))),
    ])
  }

  /// How a severity stands out on a colour terminal.
  static func tone(_ severity: LintSeverity) -> Tone? {
    switch severity {
    case .error: .bad
    case .warning: .caution
    case .note: nil
    }
  }

  /// `1 session`, `3 sessions`.
  static func plural(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)" + (count == 1 ? "" : "s")
  }
}
