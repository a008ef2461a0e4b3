import SleeveQuery

extension CIReport {
  /// A diff as CI checks: one per row. Regressed rows fail; insufficient, new and gone rows
  /// are advisory (not judged, with why); unchanged and improved rows pass.
  static func diff(_ diff: BaselineDiff) -> CIReport {
    let checks = diff.rows.map { row in
      let why = DiffTable.why(row)
      let outcome: CICheck.Outcome =
        switch row.verdict {
        case .regressed: .failed(message: "regressed: " + why)
        case .insufficient, .new, .gone: .advisory(message: "\(row.verdict.rawValue): " + why)
        case .unchanged, .improved: .passed
        }
      return CICheck(
        suite: "sleeve diff", className: className(row.key), name: name(row.key),
        outcome: outcome,
        evidence: evidence(row, options: diff.options),
        site: row.site.map { SourceSite(recorded: $0) })
    }
    return CIReport(
      title: "sleeve diff", summary: DiffTable.summary(diff) + ". " + DiffTable.sidesLine(diff),
      checks: checks, markdownSummary: DiffTable.markdown(diff, title: "sleeve diff"))
  }

  /// The gate's checks: breaches fail, insufficient and advisory checks are advisory (the
  /// gate holds on an insufficient one), passes pass.
  static func gate(_ checks: [GateCheck], summary: String, markdown: String) -> CIReport {
    CIReport(
      title: "sleeve check", summary: summary,
      checks: checks.map { check in
        let numbers =
          "\(check.metric.rawValue) \(VerdictTable.value(check)) against "
          + VerdictTable.threshold(check)
        let outcome: CICheck.Outcome =
          switch check.verdict {
          case .breach: .failed(message: numbers + (check.detail.map { "; " + $0 } ?? ""))
          case .insufficient:
            .advisory(message: "insufficient (hold): " + (check.detail ?? numbers))
          case .advisory: .advisory(message: check.detail ?? "not counted")
          case .pass: .passed
          }
        return CICheck(
          suite: "sleeve check", className: check.subject, name: check.metric.rawValue,
          outcome: outcome,
          evidence: [
            numbers,
            "n \(check.n) (at least \(check.minSamples)), p \(VerdictTable.pValue(check.pValue))",
            check.detail, "method: " + check.method,
          ].compactMap { $0 },
          site: check.site.map { SourceSite(recorded: $0) })
      }, markdownSummary: markdown)
  }

  /// Flaky findings as CI checks, one per handler: broken fails, flaky is advisory (a
  /// warning: it is information, and `check --quarantine flaky` is where it gates), cleared
  /// and consistent pass.
  static func flaky(_ rows: [FlakyAnswer.Row], summary: String, markdown: String) -> CIReport {
    CIReport(
      title: "sleeve flaky", summary: summary,
      checks: rows.map { row in
        let finding = row.finding
        let disagreed = finding.flakeRate.map { _ in
          "runs disagreed on " + FlakyText.disagreement(finding)
        }
        let kinds = finding.failureKindsByCount.map { "\($0.kind.display) (\($0.count)×)" }
        let line = [
          finding.verdict.rawValue, disagreed,
          "invocations failed " + FlakyText.failedInvocations(finding),
          row.quarantined ? "quarantined" : nil,
        ].compactMap { $0 }.joined(separator: ", ")
        let outcome: CICheck.Outcome =
          switch finding.verdict {
          case .broken: .failed(message: line)
          case .flaky: .advisory(message: line)
          case .cleared, .consistent: .passed
          }
        return CICheck(
          suite: "sleeve flaky", className: finding.control ?? GroupTally.unknownKey,
          name: finding.handler, outcome: outcome,
          evidence: [
            line,
            finding.flakyGroups.isEmpty
              ? nil : "disagreeing runs: " + FlakyText.disagreeingRuns(finding, limit: .max),
            "sessions " + finding.sessions.map(String.init).joined(separator: ", "),
            "failing sessions " + finding.failingSessions.map(String.init).joined(separator: ", "),
            kinds.isEmpty ? nil : "failure kinds: " + kinds.joined(separator: ", "),
            "method: " + FlakyAnalysis.method,
          ].compactMap { $0 },
          site: finding.site.map { SourceSite(recorded: $0) })
      }, markdownSummary: markdown)
  }

  private static func className(_ key: GroupKey) -> String {
    if case .handler(let control, _) = key { return control ?? GroupTally.unknownKey }
    return "sleeve"
  }

  private static func name(_ key: GroupKey) -> String {
    if case .handler(_, let name) = key { return name }
    return key.display
  }

  private static func evidence(_ row: DiffRow, options: DiffOptions) -> [String] {
    func side(_ name: String, _ side: DiffRow.Side) -> String {
      "\(name): n \(side.n), errors \(Formatting.percent(side.errorRate)), p50 "
        + Formatting.duration(side.percentiles.first?.nanoseconds) + ", p99 "
        + Formatting.duration(side.percentiles.last?.nanoseconds)
        + ", \(side.sessions) session\(side.sessions == 1 ? "" : "s")"
    }
    var lines = [side("baseline", row.baseline), side("candidate", row.candidate)]
    if let change = row.errorChange {
      lines.append("error rate change \(Formatting.percent(change))")
    }
    if let shift = row.latencyShift { lines.append("latency shift \(Formatting.duration(shift))") }
    for (name, test) in [("errors", row.errorTest), ("latency", row.latencyTest)] {
      guard let test else { continue }
      lines.append(
        "\(name): p \(VerdictTable.pValue(test.pValue)), Holm \(VerdictTable.pValue(test.holm)), "
          + "q \(VerdictTable.pValue(test.q))")
    }
    lines.append("method: " + DiffTable.method(row, options: options))
    return lines
  }
}

extension CIReport {
  /// `sleeve changes`: one check per change point; a new one is a warning at the handler's
  /// registration site, an older one passes (no annotation).
  static func changes(_ rows: [ChangeRow], summary: String, markdown: String) -> CIReport {
    CIReport(
      title: "sleeve changes", summary: summary,
      checks: rows.map { row in
        let change = row.change
        let line =
          "\(change.metric.rawValue) changed \(row.changeText) at commit "
          + "\(CommitID.short(change.firstCommit.commit)) (after "
          + "\(CommitID.short(change.commitBefore.commit))): "
          + "\(ChangeRow.value(change.comparison.before.mean, change.metric)) → "
          + "\(ChangeRow.value(change.comparison.after.mean, change.metric)), "
          + "p \(NumberText.pValue(change.comparison.pValue))"
        return CICheck(
          suite: "sleeve changes", className: className(change.key),
          name: handlerName(change.key) + ": " + change.metric.rawValue,
          outcome: row.isNew ? .advisory(message: line) : .passed,
          evidence: [
            line,
            "levels: \(change.comparison.before.count) commits before, "
              + "\(change.comparison.after.count) after",
            "first commit \(change.firstCommit.commit), commit before "
              + change.commitBefore.commit,
          ],
          site: change.site.map { SourceSite(recorded: $0) })
      }, markdownSummary: markdown)
  }

  private static func handlerName(_ key: GroupKey) -> String {
    if case .handler(_, let name) = key { return name }
    return key.display
  }
}
