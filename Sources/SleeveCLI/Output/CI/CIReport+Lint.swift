import SleeveQuery

extension CIReport {
  /// Lint findings as CI checks (suite `sleeve lint`), one per finding, the class the
  /// control and the name `check-id: handler` (the control's name for a control's own
  /// finding), annotated at the finding's registration site.
  ///
  /// An active finding at `failOn` or more serious fails (JUnit `<failure>`, `::error`); below
  /// it, a warning is advisory (JUnit `<skipped>`, `::warning`: shown, not gating, as `check`
  /// shows a quarantined handler) and a note is a notice (a passing JUnit testcase, `::notice`).
  /// A suppressed finding passes, its suppression in the evidence. The evidence holds the
  /// numbers, the other sites, the sessions and the check's explanation.
  static func lint(
    _ report: LintReport, failOn: LintSeverity, summary: String, markdown: String
  ) -> CIReport {
    let active = report.findings.map { finding in
      let outcome: CICheck.Outcome =
        if finding.severity <= failOn {
          .failed(message: finding.message)
        } else if finding.severity == .warning {
          .advisory(message: finding.message)
        } else {
          .notice(message: finding.message)
        }
      return check(finding, outcome: outcome)
    }
    let suppressed = report.suppressed.map { check($0, outcome: .passed) }
    return CIReport(
      title: "sleeve lint", summary: summary, checks: active + suppressed,
      markdownSummary: markdown)
  }

  private static func check(_ finding: LintFinding, outcome: CICheck.Outcome) -> CICheck {
    var lines = LintReportText.evidenceLines(finding)
    if case .passed = outcome { lines.insert(finding.message, at: 0) }
    return CICheck(
      suite: "sleeve lint", className: finding.control,
      name: finding.check.id + ": " + (finding.handler ?? finding.control),
      outcome: outcome, evidence: lines,
      site: finding.site.map { SourceSite(recorded: $0) })
  }
}
