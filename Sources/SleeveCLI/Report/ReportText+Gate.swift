import SleeveQuery

/// The gate's decision as every report format states it: the same decision and exit code
/// `sleeve check` gives for the same selection and baseline, and what decided it.
extension ReportText {
  /// What `sleeve check` exits with for the report's selection, and why: the checks that
  /// roll back or hold, by subject and metric, regressions against the baseline first.
  static func gateLine(_ report: RolloutReport) -> String {
    let decision = report.decision
    guard let exit = CheckCommand.gateExit(decision) else {
      return "Nothing to check: no flag has thresholds or a flag-off cohort"
        + (report.baseline == nil ? "" : ", and no handler was judged against the baseline")
        + "; sleeve check refuses it (exit 64)."
    }
    var line = "sleeve check exits \(exit.rawValue) (\(decision.rawValue))"
    let ordered = report.gate.baselineDecidingFirst + report.gate.flags.flatMap(\.checks)
    let breaches = ordered.filter { $0.verdict == .breach }
    let holds = ordered.filter { $0.verdict == .insufficient }
    var reasons: [String] = []
    if !breaches.isEmpty {
      reasons.append("\(breaches.count) roll back: " + names(breaches))
    }
    if !holds.isEmpty {
      reasons.append("\(holds.count) hold: " + names(holds))
    }
    if !reasons.isEmpty { line += ": " + reasons.joined(separator: "; ") }
    return line + "."
  }

  /// Which sessions the baseline and the candidate are, or `nil` without a baseline.
  static func baselineSides(_ report: RolloutReport) -> String? {
    guard let request = report.baseline else { return nil }
    func ids(_ sessions: [SessionSummary]) -> String {
      (sessions.count == 1 ? "session " : "sessions ")
        + sessions.map { String($0.id) }.joined(separator: ", ")
    }
    return "Judged against the baseline (\(ids(request.baseline))): the candidate "
      + "\(ids(request.candidate)), each candidate session alone for --failure-limit "
      + "\(request.failureLimit)."
  }

  /// The checks against the baseline, what rolls back first, with why; `check`'s columns
  /// but the method, which ``baselineMethods(_:)`` states once for all of them (a report is
  /// read on a page, where a method per row crowds out the detail).
  static func baselineTable(_ report: RolloutReport) -> Table {
    GateCheck.columns(detail: true, method: false).table(report.gate.baselineDecidingFirst)
  }

  /// The methods of the checks against the baseline, each once, in the table's order.
  static func baselineMethods(_ report: RolloutReport) -> String {
    var seen: Set<String> = []
    let methods = report.gate.baselineDecidingFirst.map(\.method).filter {
      seen.insert($0).inserted
    }
    return "Methods of these checks: " + methods.joined(separator: " · ")
  }

  /// The subjects of every check that rolls back or holds (handlers as `control/handler`,
  /// flags as `flag key (on)`): what a chart must never leave out.
  static func flaggedSubjects(_ report: RolloutReport) -> Set<String> {
    Set(
      report.gate.checks.filter { $0.verdict == .breach || $0.verdict == .insufficient }
        .map(\.subject))
  }

  /// `subject metric` for each check, the first five, then how many more.
  private static func names(_ checks: [GateCheck]) -> String {
    let shown = checks.prefix(5).map { "\($0.subject) \($0.metric.rawValue)" }
    return shown.joined(separator: ", ")
      + (checks.count > shown.count ? ", and \(checks.count - shown.count) more" : "")
  }
}
