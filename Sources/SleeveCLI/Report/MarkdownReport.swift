import SleeveQuery

/// The rollout report as Markdown: fits a PR comment or a CI job summary. Every recorded text
/// (names, keys, reasons, actors, environment values) is escaped with `MarkdownText`, so none
/// can become markup, raw HTML, a link or a new line.
enum MarkdownReport {
  static func render(_ report: RolloutReport) -> String {
    let e = MarkdownText.escaped
    var out = "# Rollout report\n\n"
    out += "**Decision: \(report.decision.rawValue)** \(e(ReportText.decisionLine(report)))\n\n"
    out += e(ReportText.gateLine(report)) + "\n\n"
    if let sides = ReportText.baselineSides(report) {
      out += "## Against the baseline\n\n" + e(sides) + "\n\n"
      out += ReportText.baselineTable(report).markdown + "\n"
      out += e(ReportText.baselineMethods(report)) + "\n\n"
    }
    out += "## Sessions\n\n" + ReportText.sessionsTable(report.sessions).markdown
    for session in report.sessions {
      let environment = ReportText.environment(session)
      if !environment.isEmpty {
        out += "\nSession \(session.id) environment: \(e(environment))\n"
      }
    }
    out += "\n## Flags\n"
    if report.flags.isEmpty { out += "\nNo flags in the selected sessions.\n" }
    for section in report.flags {
      let flag = section.report
      out += "\n### \(e(flag.key)): \(section.verdict.decision.rawValue)\n\n"
      out += e(ReportText.flagLine(flag)) + "\n\n"
      out += ReportText.cohortTable(flag).markdown + "\n"
      if let rollout = ReportText.rolloutLine(flag) {
        out +=
          e(rollout) + "\n\n"
          + (flag.stages.isEmpty
            ? ReportText.noStagesYet + "\n" : ReportText.stageTable(flag.stages).markdown) + "\n"
      }
      if !section.verdict.checks.isEmpty {
        out += VerdictTable.table(section.verdict.checks).markdown + "\n"
      }
      for note in section.verdict.notes { out += "> \(e(note))\n\n" }
      if !flag.history.isEmpty {
        out += "Timeline:\n\n"
        out +=
          flag.history.map { "- " + e(ReportText.changeLine($0)) }.joined(separator: "\n") + "\n"
      }
    }
    out += "\n## Handlers\n\n" + ReportText.handlerTable(report.handlers).markdown
    out += "\n" + e(ReportText.methods(report)) + "\n"
    return out
  }
}

/// Text pieces every report format shares.
enum ReportText {
  /// The methods line of a report: the percentile method is the one its plan read with
  /// (``AnswerPlan/percentileMethod``), and the plan's sentence follows.
  static func methods(_ report: RolloutReport) -> String {
    "Methods: error rate = \(ErrorRateRow.method); percentiles = "
      + "\(report.plan.percentileMethod); "
      + "flag-on vs flag-off at \(Int((1 - GateCheck.significance) * 100))% confidence. "
      + report.plan.sentence(showsStages: showsStages(report.flags.map(\.report)))
  }

  static func decisionLine(_ report: RolloutReport) -> String {
    let counts = [RolloutDecision.rollback, .hold, .promote].compactMap { decision -> String? in
      let count = report.flags.filter { $0.verdict.decision == decision }.count
      return count == 0 ? nil : "\(count) \(decision.rawValue)"
    }
    return "(\(report.flags.count) flag\(report.flags.count == 1 ? "" : "s")"
      + (counts.isEmpty ? "" : ": " + counts.joined(separator: ", ")) + ")"
  }

  /// The sessions (``SessionSummary/reportColumns``).
  static func sessionsTable(_ sessions: [SessionSummary]) -> Table {
    SessionSummary.reportColumns.table(sessions)
  }

  /// The recorded environment variables sorted by name, `NAME=value, …`, values as recorded
  /// (each format escapes the line); empty when none was recorded.
  static func environment(_ session: SessionSummary) -> String {
    session.recorded.sortedEnvironment.map { "\($0.name)=\($0.value)" }
      .joined(separator: ", ")
  }

  static func flagLine(_ flag: FlagReport) -> String {
    var parts = ["State: \(flag.history.last?.display ?? flag.state)"]
    if let reason = flag.history.last?.reason { parts[0] += " (\(reason))" }
    if let owner = flag.owner { parts.append("owner \(owner)") }
    var thresholds: [String] = []
    if let rate = flag.maxErrorRate {
      thresholds.append("max error rate \(Formatting.percent(rate))")
    }
    if let p99 = flag.maxP99Nanoseconds {
      thresholds.append("max p99 \(Formatting.duration(Double(p99)))")
    }
    if let minimum = flag.minSamples { thresholds.append("min samples \(minimum)") }
    if !thresholds.isEmpty { parts.append("thresholds: " + thresholds.joined(separator: ", ")) }
    return parts.joined(separator: " · ")
  }

  /// The flag's two cohorts (``ReportCohortRow/columns``).
  static func cohortTable(_ flag: FlagReport) -> Table {
    ReportCohortRow.columns.table(ReportCohortRow.rows(of: flag))
  }

  /// Each handler (``RolloutReport/HandlerRow/columns``).
  static func handlerTable(_ handlers: [RolloutReport.HandlerRow]) -> Table {
    RolloutReport.HandlerRow.columns.table(handlers)
  }

  static func changeLine(_ change: FlagReport.Change) -> String {
    Formatting.timestamp(unixNanoseconds: change.atUnixNanoseconds) + " " + change.display
      + (change.reason.map { " (\($0))" } ?? "") + (change.actor.map { " by \($0)" } ?? "")
      + (change.session == nil ? " [command line]" : "")
  }

  /// How the flag rolls out by percentage (its unit, stages and the share served now), or
  /// `nil` for a flag that never served a share.
  static func rolloutLine(_ flag: FlagReport) -> String? {
    guard !flag.stages.isEmpty || flag.history.contains(where: { $0.percent != nil }) else {
      return nil
    }
    var parts: [String] = []
    if let unit = flag.rollout?.unit {
      parts.append("Rollout by \(unit)")
    } else {
      parts.append("Rollout by fire (the flag declares no unit)")
    }
    if let stages = flag.rollout?.stages, !stages.isEmpty {
      parts.append(
        "stages "
          + stages.map { "\($0.percent) (\($0.minSamples) per cohort)" }
          .joined(separator: " → "))
    }
    if let served = flag.servedPercent { parts.append("serving \(served)") }
    return parts.joined(separator: " · ")
  }

  /// What a rolling-out flag shows instead of its per-share table while nothing has run at
  /// any share (a header with no rows says nothing).
  static let noStagesYet = "No outcomes at any share yet."

  /// Whether any of `flags` shows a per-share section (``rolloutLine(_:)``).
  static func showsStages(_ flags: [FlagReport]) -> Bool {
    flags.contains { rolloutLine($0) != nil }
  }

  /// One row per share the flag served (``StageCohorts/columns``).
  static func stageTable(_ stages: [StageCohorts]) -> Table {
    StageCohorts.columns.table(stages)
  }
}
