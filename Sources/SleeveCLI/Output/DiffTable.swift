import SleeveQuery

/// How a baseline-against-candidate comparison reads in tables, JSON and a PR comment (shared
/// by `diff` and `check --baseline`).
enum DiffTable {
  /// The row's group as reports show it: `CheckoutView/submit` for a handler.
  static func name(_ row: DiffRow) -> String { row.key.display }

  /// One row per group: the verdict, both sides' n, error rate and p99, the change, the tests
  /// and why.
  static func table(_ diff: BaselineDiff) -> Table {
    var table = Table(
      columns: [
        "verdict", diff.grouping.rawValue, "n base", "n cand", "errors base", "errors cand",
        "p50 base", "p50 cand", "p99 base", "p99 cand", "shift", "p (Holm)", "q (BH)", "why",
        "method",
      ], numeric: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], freeText: [13, 14])
    for row in diff.rows {
      let tests = [row.errorTest, row.latencyTest].compactMap { $0 }
      let holm = tests.compactMap(\.holm).min()
      let q = tests.map(\.q).min()
      table.rows.append([
        Table.Cell(row.verdict.rawValue, tone: tone(row.verdict)), Table.Cell(name(row)),
        Table.Cell(String(row.baseline.n)), Table.Cell(String(row.candidate.n)),
        rate(row.baseline), rate(row.candidate),
        point(row.baseline, 0), point(row.candidate, 0),
        point(row.baseline, 2), point(row.candidate, 2),
        Table.Cell(Formatting.duration(row.latencyShift), raw: Formatting.raw(row.latencyShift)),
        Table.Cell(VerdictTable.pValue(holm), raw: Formatting.raw(holm)),
        Table.Cell(VerdictTable.pValue(q), raw: Formatting.raw(q)),
        Table.Cell(why(row)), Table.Cell(method(row, options: diff.options)),
      ])
    }
    return table
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

  private static func rate(_ side: DiffRow.Side) -> Table.Cell {
    Table.Cell(Formatting.percent(side.errorRate), raw: Formatting.raw(side.errorRate))
  }

  private static func point(_ side: DiffRow.Side, _ index: Int) -> Table.Cell {
    guard index < side.percentiles.count else { return Table.Cell("-", raw: "") }
    let point = side.percentiles[index]
    let text = Formatting.duration(point.nanoseconds)
    return Table.Cell(
      point.insufficient && point.nanoseconds != nil ? text + "*" : text,
      raw: Formatting.raw(point.nanoseconds))
  }

  /// The JSON of a comparison, with stable keys.
  static func json(_ diff: BaselineDiff) -> JSONValue {
    .object([
      ("by", .string(diff.grouping.rawValue)),
      ("baselineSessions", .array(diff.baselineSessions.map { .int($0.id) })),
      ("candidateSessions", .array(diff.candidateSessions.map { .int($0.id) })),
      ("stratifiedByTest", .bool(diff.stratifiedByTest)),
      ("summary", .string(summary(diff))),
      ("rows", .array(diff.rows.map(row))),
    ])
  }

  private static func side(_ side: DiffRow.Side) -> JSONValue {
    .object([
      ("n", .integer(side.n)), ("failed", .integer(side.failed)),
      ("errorRate", .number(side.errorRate)),
      ("intervalLower", .number(side.interval?.lower)),
      ("intervalUpper", .number(side.interval?.upper)),
      ("p50", .number(side.percentiles.first?.nanoseconds)),
      ("p95", .number(side.percentiles.dropFirst().first?.nanoseconds)),
      ("p99", .number(side.percentiles.last?.nanoseconds)),
      ("percentileMethod", .string(side.percentileMethod)),
      ("sessions", .integer(side.sessions)),
    ])
  }

  private static func test(_ test: DiffRow.Test?) -> JSONValue {
    guard let test else { return .null }
    return .object([
      ("pValue", .number(test.pValue)), ("holm", .number(test.holm)), ("q", .number(test.q)),
      ("method", .string(test.method)),
    ])
  }

  private static func row(_ row: DiffRow) -> JSONValue {
    var fields: [(String, JSONValue)] = [("verdict", .string(row.verdict.rawValue))]
    if case .handler(let control, let handler) = row.key {
      fields += [("control", .text(control)), ("handler", .string(handler))]
    } else {
      fields.append(("key", .string(row.key.display)))
    }
    fields += [
      ("site", .text(row.site)), ("movedFrom", .text(row.movedFrom)),
      ("baseline", side(row.baseline)), ("candidate", side(row.candidate)),
      ("errorChange", .number(row.errorChange)), ("latencyShift", .number(row.latencyShift)),
      ("errorTest", test(row.errorTest)), ("latencyTest", test(row.latencyTest)),
      (
        "newFailureTypes",
        .array(
          row.newFailureKinds.map {
            .object([
              ("type", .string($0.kind.type)), ("pattern", .string($0.kind.pattern)),
              ("count", .integer($0.count)),
            ])
          })
      ),
      ("detectableErrorRise", .number(row.detectable.errorRate)),
      ("detectableLatencyShift", .number(row.detectable.latencyShift)),
      ("strata", row.strata.map { .integer($0) } ?? .null),
      ("reasons", .array(row.reasons.map { .string($0) })),
    ]
    return .object(fields)
  }

  /// A PR comment: the summary line, the rows that matter (every verdict but `unchanged`) as a
  /// table, and the unchanged rows folded under `<details>`. Every cell is escaped with
  /// `MarkdownText`.
  static func markdown(_ diff: BaselineDiff, title: String) -> String {
    let full = table(diff)
    var matter = full
    var rest = full
    matter.rows = []
    rest.rows = []
    for (index, row) in diff.rows.enumerated() {
      if row.verdict == .unchanged {
        rest.rows.append(full.rows[index])
      } else {
        matter.rows.append(full.rows[index])
      }
    }
    var out = "### \(MarkdownText.escaped(title))\n\n"
    out +=
      "**\(MarkdownText.escaped(summary(diff)))**. \(MarkdownText.escaped(sidesLine(diff)))\n\n"
    if !matter.rows.isEmpty { out += matter.markdown + "\n" }
    if !rest.rows.isEmpty {
      out += "<details><summary>\(rest.rows.count) unchanged</summary>\n\n"
      out += rest.markdown + "\n</details>\n"
    }
    return out
  }
}
