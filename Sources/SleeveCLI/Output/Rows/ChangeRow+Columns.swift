import SleeveQuery

/// One row of `sleeve changes`: a change point, and whether it is new (its first commit is
/// among the last `--new-within` commits).
struct ChangeRow: Sendable {
  /// The change.
  let change: HandlerChange
  /// Whether it is new.
  let isNew: Bool

  /// A value of `metric` for people: a duration, or an error rate in percent.
  static func value(_ value: Double, _ metric: ChangeMetric) -> String {
    metric == .errorRate ? NumberText.percent(value) : NumberText.duration(value)
  }

  /// The change as people read it: `+25.00%` of latency, `+4.00 points` of error rate.
  var changeText: String {
    let comparison = change.comparison
    if change.metric == .errorRate {
      let points = (comparison.after.mean - comparison.before.mean) * 100
      return (points >= 0 ? "+" : "") + NumberText.fixed(points, digits: 2) + " points"
    }
    return change.relativeChange.map(NumberText.signedPercent) ?? "-"
  }

  /// One line for a change inside a comparison's baseline: `Change point in the baseline:
  /// checkout.pay/charge-card p50 +41.42% at commit 3f2a91c0d4e5 (25.3 µs → 35.7 µs; 6
  /// commits before, 4 after).`
  var baselineNote: String {
    let comparison = change.comparison
    return "Change point in the baseline: \(change.key.display) \(change.metric.rawValue) "
      + "\(changeText) at commit \(CommitID.short(change.firstCommit.commit)) "
      + "(\(Self.value(comparison.before.mean, change.metric)) → "
      + "\(Self.value(comparison.after.mean, change.metric)); \(comparison.before.count) commits "
      + "before, \(comparison.after.count) after)."
  }

  /// The columns: the handler, the metric, the first commit at the new level and the last at
  /// the old, both levels with their 95% intervals and commit counts, the change, the p-value,
  /// whether it is the handler's current level and new, the registration site and the method.
  static let columns = Columns<ChangeRow>([
    .text("handler", json: nil) { $0.change.key.display },
    .json("control") { row in
      if case .handler(let control, _) = row.change.key { return .text(control) }
      return .null
    },
    .json("handler") { row in
      if case .handler(_, let name) = row.change.key { return .string(name) }
      return .string(row.change.key.display)
    },
    .text("metric", json: "metric") { $0.change.metric.rawValue },
    commit("first commit", json: "firstCommit") { $0.change.firstCommit },
    commit("commit before", json: "commitBefore") { $0.change.commitBefore },
    level("before", json: "before") { $0.change.comparison.before },
    level("after", json: "after") { $0.change.comparison.after },
    Column(
      "change", unit: .text, layout: .numeric,
      members: [
        .init(key: "relativeChange") { .number($0.change.relativeChange) },
        .init(key: "difference") {
          .number($0.change.comparison.after.mean - $0.change.comparison.before.mean)
        },
      ]
    ) { Table.Cell($0.changeText) },
    .number("p", json: "pValue", { $0.change.comparison.pValue }, display: NumberText.pValue),
    .text("current", json: nil) { $0.change.isLatest ? "yes" : "no" },
    .json("current") { .bool($0.change.isLatest) },
    .text("new", json: nil) { $0.isNew ? "yes" : "no" },
    .json("new") { .bool($0.isNew) },
    Column(
      "site", unit: .text, layout: .text,
      members: [.init(key: "site") { .text($0.change.site) }]
    ) { Table.Cell($0.change.site ?? "-", raw: $0.change.site ?? "") },
    .text("method", json: "method", layout: .freeText) { $0.change.metric.method },
  ])

  /// A commit: the cell shows its first 12 characters over the whole id; JSON the id under
  /// `json`, its first session's start under `json + "StartedUnixNs"` and its sessions.
  private static func commit(
    _ title: String, json: String, _ value: @escaping @Sendable (ChangeRow) -> CommitValue
  ) -> Column<ChangeRow> {
    Column(
      title, unit: .text, layout: .text,
      members: [
        .init(key: json) { .string(value($0).commit) },
        .init(key: json + "StartedUnixNs") { .integer(value($0).startedUnixNanoseconds) },
        .init(key: json + "Sessions") { .array(value($0).sessions.map(JSONValue.int)) },
      ]
    ) { Table.Cell(CommitID.short(value($0).commit), raw: value($0).commit) }
  }

  /// A level: the cell shows `1.20 ms [1.18 ms, 1.22 ms] (40)`, its mean, 95% interval and
  /// commits; CSV its mean; JSON an object of them.
  private static func level(
    _ title: String, json: String, _ value: @escaping @Sendable (ChangeRow) -> SegmentLevel
  ) -> Column<ChangeRow> {
    Column(
      title, unit: .text, layout: .numeric,
      members: [
        .init(key: json) { row in
          let level = value(row)
          return .object([
            ("mean", .number(level.mean)), ("intervalLower", .number(level.interval?.lowerBound)),
            ("intervalUpper", .number(level.interval?.upperBound)),
            ("commits", .integer(level.count)),
          ])
        }
      ]
    ) { row in
      let level = value(row)
      let metric = row.change.metric
      let interval = level.interval.map {
        " [\(Self.value($0.lowerBound, metric)), \(Self.value($0.upperBound, metric))]"
      }
      return Table.Cell(
        Self.value(level.mean, metric) + (interval ?? "") + " (\(level.count))",
        raw: Formatting.raw(level.mean))
    }
  }
}
