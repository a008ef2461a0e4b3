import SleeveQuery

/// How a `sleeve flaky` finding reads in its table and its CI lines, the one home of both: the
/// share of commits whose runs disagreed is named for what it counts (runs, commits), never a
/// "rate" beside the share of invocations that failed, and the disagreeing runs are named.
enum FlakyText {
  /// The runs that disagreed: `2 of 4 commits (50.00%)`; `-` when no commit ran it twice.
  static func disagreement(_ finding: FlakyAnalysis.Finding) -> String {
    guard let share = finding.flakeRate else { return "-" }
    let unit = finding.judgedGroups == 1 ? "commit" : "commits"
    return "\(finding.flakyGroups.count) of \(finding.judgedGroups) \(unit) "
      + "(\(Formatting.percent(share)))"
  }

  /// The invocations that failed: `0.73% (10 of 1370)`.
  static func failedInvocations(_ finding: FlakyAnalysis.Finding) -> String {
    "\(Formatting.percent(finding.errorRate)) (\(finding.failed) of \(finding.ran))"
  }

  /// Which runs of which commit disagreed, the first `limit` commits:
  /// `commit e1f2a3b4c5d6: session 3 failed, 4 passed; …`; `-` when none did.
  static func disagreeingRuns(_ finding: FlakyAnalysis.Finding, limit: Int = 3) -> String {
    let groups = finding.flakyGroups
    guard !groups.isEmpty else { return "-" }
    let shown = groups.prefix(limit).map(runs)
    return shown.joined(separator: "; ")
      + (groups.count > limit ? "; and \(groups.count - limit) more" : "")
  }

  /// One group's runs: which failed it and which passed.
  private static func runs(_ record: FlakyAnalysis.GroupRecord) -> String {
    let failing = Set(record.failingSessions)
    let passed = record.sessions.filter { !failing.contains($0) }
    func list(_ ids: [Int64]) -> String {
      (ids.count == 1 ? "session " : "sessions ") + ids.map(String.init).joined(separator: ", ")
    }
    return "commit \(record.group.commit.prefix(12))"
      + (record.group.test.map { " (\($0))" } ?? "") + ": "
      + list(record.failingSessions) + " failed, " + list(passed) + " passed"
  }
}
