import SleeveQuery

/// The rollout report as one self-contained HTML page: inline CSS and SVG charts, no scripts.
enum HTMLReport {
  /// The most handlers the trend section charts besides those that failed or regressed.
  static let maximumTrends = 12

  /// The page; `trends` (most invoked handler first, over the selected sessions or, with a
  /// baseline, over its sessions and the selected ones) adds a trend section.
  static func render(_ report: RolloutReport, trends: [HandlerTrend] = []) -> String {
    var body = "<h1>Rollout report</h1>"
    body +=
      "<p class=\"decision \(report.decision.rawValue)\">Decision: <strong>"
      + report.decision.rawValue + "</strong> " + e(ReportText.decisionLine(report)) + "</p>"
    body += "<p class=\"gate\">\(e(ReportText.gateLine(report)))</p>"
    if let sides = ReportText.baselineSides(report) {
      body += "<h2>Against the baseline</h2><p>\(e(sides))</p>"
      body += table(ReportText.baselineTable(report))
      body += "<p class=\"note\">\(e(ReportText.baselineMethods(report)))</p>"
    }
    body += "<h2>Sessions</h2>" + table(ReportText.sessionsTable(report.sessions))
    let end = report.sessions.map(\.lastSeenUnixNanoseconds).max() ?? 0
    body += "<h2>Flags</h2>"
    if report.flags.isEmpty { body += "<p>No flags in the selected sessions.</p>" }
    for section in report.flags {
      let flag = section.report
      body +=
        "<section><h3>\(e(flag.key)): <span class=\"\(section.verdict.decision.rawValue)\">"
        + section.verdict.decision.rawValue + "</span></h3>"
      body += "<p>\(e(ReportText.flagLine(flag)))</p>"
      body += table(ReportText.cohortTable(flag))
      if let rollout = ReportText.rolloutLine(flag) {
        body +=
          "<p>\(e(rollout))</p>"
          + (flag.stages.isEmpty
            ? "<p>\(ReportText.noStagesYet)</p>" : table(ReportText.stageTable(flag.stages)))
      }
      if !section.verdict.checks.isEmpty {
        body += table(VerdictTable.table(section.verdict.checks))
      }
      for note in section.verdict.notes { body += "<p class=\"note\">\(e(note))</p>" }
      body +=
        "<figure>"
        + SVGCharts.latencyCDF(
          flag: flag.key, on: flag.on.durationsForCharts, onN: flag.on.n,
          off: flag.off.durationsForCharts, offN: flag.off.n) + "</figure>"
      body +=
        "<figure>"
        + SVGCharts.timeline(
          flag: flag.key, history: flag.history, endUnixNanoseconds: end) + "</figure>"
      body += "</section>"
    }
    let flagged = ReportText.flaggedSubjects(report)
    let named = Set(
      report.handlers.map(\.errors.key).filter { key in
        flagged.contains { $0 == key || $0.hasSuffix("/" + key) }
      })
    body += "<h2>Handlers</h2>" + table(ReportText.handlerTable(report.handlers))
    body += "<figure>" + SVGCharts.errorRates(report.handlers, named: named) + "</figure>"
    if !trends.isEmpty {
      let (drawn, left) = SVGCharts.drawn(trends, limit: maximumTrends) { trend in
        trend.points.contains { $0.errorRate > 0 } || flagged.contains(trend.key.display)
      }
      body += "<h2>Trend</h2><p class=\"note\">Per handler, error rate (bars) and p99 (line) "
      body += "in each session, oldest first; baseline sessions in grey; a dashed rule marks "
      body += "a change point inside the baseline (sleeve changes), its two levels dotted; with "
      body += "since=change, the baseline sessions before a handler's change are pale."
      if left > 0 {
        body +=
          " \(drawn.count) of \(trends.count) handlers: every one that failed or regressed, "
          + "then the most invoked; \(left) not drawn."
      }
      body += "</p>"
      for trend in drawn {
        body += "<figure>" + SVGCharts.trend(trend) + "</figure>"
      }
    }
    body += "<p class=\"note\">\(e(ReportText.methods(report)))</p>"
    return """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8"><title>Sleeve rollout report</title>
      <style>
      body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:1100px;color:#222;padding:0 1rem}
      table{border-collapse:collapse;margin:.6rem 0 1rem;font-size:13px}
      th,td{border-bottom:1px solid #ddd;padding:.25rem .6rem;text-align:left}
      td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap;overflow-wrap:normal}
      .decision{font-size:1.2rem}.promote{color:#1b7f3b}.hold{color:#9a6700}.rollback{color:#c0392b}.nothing-to-check{color:#57606a}
      .note{color:#555}figure{margin:1rem 0}svg{max-width:100%;height:auto;background:#fafafa}
      .wide{overflow-x:auto}.wide table{width:100%}td{max-width:32rem;overflow-wrap:anywhere}
      section{border-top:2px solid #eee;padding-top:.5rem}
      </style></head><body>
      """ + body + "</body></html>\n"
  }

  private static func e(_ text: String) -> String { MarkupText.escaped(text) }

  private static func table(_ table: Table) -> String {
    var html = "<div class=\"wide\"><table><thead><tr>"
    html += table.columns.map { "<th>\(e($0))</th>" }.joined() + "</tr></thead><tbody>"
    for row in table.rows {
      html +=
        "<tr>"
        + row.enumerated().map { index, cell in
          table.numeric.contains(index)
            ? "<td class=\"n\">\(e(cell.display))</td>" : "<td>\(e(cell.display))</td>"
        }.joined() + "</tr>"
    }
    return html + "</tbody></table></div>"
  }
}
