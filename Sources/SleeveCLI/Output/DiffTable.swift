import SleeveQuery

/// How a baseline-against-candidate comparison reads in tables, JSON and a PR comment (shared
/// by `diff` and `check --baseline`).
enum DiffTable {
  /// The row's group as reports show it: `CheckoutView/submit` for a handler.
  static func name(_ row: DiffRow) -> String { row.key.display }

  /// One row per group (``DiffRow/columns(for:)``).
  static func table(_ diff: BaselineDiff) -> Table {
    DiffRow.columns(for: diff).table(diff.rows)
  }

  /// The reasons, the move and the smallest detectable change, as one sentence list.
  static func why(_ row: DiffRow) -> String {
    var parts = row.explanation
    if let rise = row.detectable.errorRate {
      parts.append("detectable: +\(Formatting.percent(rise)) error rate")
    }
    if let shift = row.detectable.latencyShift {
      parts.append("detectable: +\(Formatting.duration(shift)) latency")
    }
    return parts.joined(separator: "; ")
  }

  /// The methods of the row's tests, and of its smallest detectable change when it has one;
  /// and how its percentiles are defined when that is not the exact default (summaries).
  static func method(_ row: DiffRow, options: DiffOptions) -> String {
    let tests = [row.errorTest, row.latencyTest].compactMap { $0 }
    var methods = tests.map(\.method)
    for percentiles in Set([row.baseline.percentileMethod, row.candidate.percentileMethod])
      .sorted() where percentiles != Percentile.method
    {
      methods.append("percentiles " + percentiles)
    }
    if !tests.isEmpty {
      methods += [MultipleComparisons.holmMethod, MultipleComparisons.benjaminiHochbergMethod]
    }
    if row.detectable.errorRate != nil || row.detectable.latencyShift != nil {
      methods.append(DetectableEffect.method(alpha: options.alpha, power: options.power))
    }
    return methods.isEmpty ? "-" : methods.joined(separator: "; ")
  }

  /// `2 regressed, 1 new, 40 unchanged of 43 handlers`.
  static func summary(_ diff: BaselineDiff) -> String {
    let counts = diff.counts.map { "\($0.count) \($0.verdict.rawValue)" }
    let noun = diff.grouping.rawValue + (diff.rows.count == 1 ? "" : "s")
    guard !counts.isEmpty else { return "Nothing to compare: no \(noun) ran on either side" }
    return counts.joined(separator: ", ") + " of \(diff.rows.count) \(noun)"
  }

  /// `Baseline: 8 sessions (1, 2, 3, 4, 5, 6, 7, 8) on branch main at 4 commits (c01a…, …);
  /// candidate: session 9 on branch feature at commit e1f2a3b4c5d6.`: each side's sessions
  /// (the first 10 ids, then how many more), and the branches and commits they built, as
  /// recorded (left out where none was).
  static func sidesLine(_ diff: BaselineDiff) -> String {
    func list(_ sessions: [SessionSummary]) -> String {
      let shown = sessions.prefix(10).map { String($0.id) }.joined(separator: ", ")
      let more = sessions.count > 10 ? " and \(sessions.count - 10) more" : ""
      return
        (sessions.count == 1
        ? "session \(sessions[0].id)" : "\(sessions.count) sessions (\(shown)\(more))")
        + built(sessions)
    }
    return "Baseline: \(list(diff.baselineSessions)); candidate: \(list(diff.candidateSessions))"
      + (diff.stratifiedByTest ? "; compared test by test." : ".")
  }

  /// ` on branch main at 2 commits (c01aaaa, c02aaaa)`: the distinct branches and commits
  /// (12 characters of each, the first 5, oldest first) the sessions recorded.
  private static func built(_ sessions: [SessionSummary]) -> String {
    func distinct(_ values: [String]) -> [String] {
      var seen: Set<String> = []
      return values.filter { seen.insert($0).inserted }
    }
    func named(_ values: [String], _ one: String, _ many: String) -> String? {
      guard !values.isEmpty else { return nil }
      let shown =
        values.prefix(5).joined(separator: ", ")
        + (values.count > 5 ? ", and \(values.count - 5) more" : "")
      return values.count == 1 ? "\(one) \(shown)" : "\(values.count) \(many) (\(shown))"
    }
    let branches = distinct(sessions.compactMap(\.context.run.branch))
    let commits = distinct(
      sessions.compactMap { $0.context.run.commit.map { String($0.prefix(12)) } })
    let parts = [
      named(branches, "on branch", "branches").map { $0.hasPrefix("on ") ? $0 : "on " + $0 },
      named(commits, "at commit", "commits").map { $0.hasPrefix("at ") ? $0 : "at " + $0 },
    ].compactMap { $0 }
    return parts.isEmpty ? "" : " " + parts.joined(separator: " ")
  }

  static func tone(_ verdict: DiffRow.Verdict) -> Tone? {
    switch verdict {
    case .regressed: .bad
    case .improved: .good
    case .insufficient, .new, .gone: .caution
    case .unchanged: nil
    }
  }

  /// The comparison as every shared format prints it: `header` above the table, and the
  /// JSON document's `by`, both sides' sessions, whether it was stratified and the summary
  /// around its rows; `trailingFields` after them.
  static func view(
    _ diff: BaselineDiff, header: [String] = [], trailingFields: [(String, JSONValue)] = []
  ) -> AnswerView<DiffRow> {
    AnswerView(
      header: header,
      fields: [
        ("by", .string(diff.grouping.rawValue)),
        ("baselineSessions", .array(diff.baselineSessions.map { .int($0.id) })),
        ("candidateSessions", .array(diff.candidateSessions.map { .int($0.id) })),
        ("stratifiedByTest", .bool(diff.stratifiedByTest)),
        ("summary", .string(summary(diff))),
      ], rowsKey: "rows", trailingFields: trailingFields, columns: DiffRow.columns(for: diff),
      rows: diff.rows)
  }

  /// The JSON of a comparison, with stable keys.
  static func json(_ diff: BaselineDiff) -> JSONValue { view(diff).json }

  /// A PR comment: the summary line, each of `notes` (a paragraph each: the baseline's change
  /// points), the rows that matter (every verdict but `unchanged`) as a table, and the
  /// unchanged rows folded under `<details>`. Every cell is escaped with `MarkdownText`.
  static func markdown(_ diff: BaselineDiff, title: String, notes: [String] = []) -> String {
    let columns = DiffRow.columns(for: diff)
    let matter = columns.table(diff.rows.filter { $0.verdict != .unchanged })
    let rest = columns.table(diff.rows.filter { $0.verdict == .unchanged })
    var out = "### \(MarkdownText.escaped(title))\n\n"
    out +=
      "**\(MarkdownText.escaped(summary(diff)))**. \(MarkdownText.escaped(sidesLine(diff)))\n\n"
    out += notes.map { MarkdownText.escaped($0) + "\n\n" }.joined()
    if !matter.rows.isEmpty { out += matter.markdown + "\n" }
    if !rest.rows.isEmpty {
      out += "<details><summary>\(rest.rows.count) unchanged</summary>\n\n"
      out += rest.markdown + "\n</details>\n"
    }
    return out
  }
}
