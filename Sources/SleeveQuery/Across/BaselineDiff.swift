/// A candidate judged against its baseline, per group: the answer to "did this change make a
/// handler slower or flakier than it is on main?".
///
/// Built one session at a time (``add(_:side:)``), so memory holds the pooled durations of
/// both sides, never every session's tallies at once; then ``finish()`` tests every row,
/// controls the error rate of the verdicts across rows, and lets the durations go.
public struct BaselineDiff: Sendable {
  /// A side of the comparison.
  public enum Side: String, Sendable {
    /// What the candidate is judged against (e.g. the last 20 runs on main).
    case baseline
    /// What is judged (e.g. this pull request's run).
    case candidate
  }

  /// How rows were judged.
  public let options: DiffOptions
  /// The grouping of the rows.
  public let grouping: Grouping
  /// The baseline's sessions, oldest first.
  public private(set) var baselineSessions: [SessionSummary] = []
  /// The candidate's sessions, oldest first.
  public private(set) var candidateSessions: [SessionSummary] = []
  /// The rows, regressions first, then by verdict and name (after ``finish()``).
  public private(set) var rows: [DiffRow] = []
  /// Whether rows compare like with like, test by test (every session on both sides
  /// recorded its test, and some test ran on both).
  public private(set) var stratifiedByTest = false

  private var pools: [Side: [GroupKey: SidePool]] = [.baseline: [:], .candidate: [:]]
  private var order: [GroupKey] = []
  private var allSessionsHaveTests = true

  /// An empty comparison.
  public init(grouping: Grouping, options: DiffOptions) {
    self.grouping = grouping
    self.options = options
  }

  /// The rows with each verdict, in ``DiffRow/Verdict`` order, for a summary line.
  public var counts: [(verdict: DiffRow.Verdict, count: Int)] {
    DiffRow.Verdict.allCases.compactMap { verdict in
      let count = rows.filter { $0.verdict == verdict }.count
      return count == 0 ? nil : (verdict, count)
    }
  }

  /// Adds one session's tallies to `side`.
  public mutating func add(_ tallies: SessionTallies, side: Side) {
    switch side {
    case .baseline: baselineSessions.append(tallies.session)
    case .candidate: candidateSessions.append(tallies.session)
    }
    let test = tallies.session.context.test
    if test == nil { allSessionsHaveTests = false }
    for group in tallies.groups where group.ran > 0 {
      if pools[.baseline]![group.groupKey] == nil && pools[.candidate]![group.groupKey] == nil {
        order.append(group.groupKey)
      }
      pools[side]![group.groupKey, default: SidePool()].add(group, test: test ?? "")
    }
  }

  /// Tests every row and decides its verdict.
  public mutating func finish() {
    var baseline = pools[.baseline]!
    let candidate = pools[.candidate]!
    var movedFrom: [GroupKey: String] = [:]
    if grouping == .handler {
      for (old, new) in MovedRegistrations.pairs(baseline: baseline, candidate: candidate) {
        if let pool = baseline.removeValue(forKey: old) {
          baseline[new, default: SidePool()].absorb(pool)
          movedFrom[new] = pool.site
        }
      }
    }
    let baselineTests = Set(baseline.values.flatMap(\.strata.keys))
    let candidateTests = Set(candidate.values.flatMap(\.strata.keys))
    stratifiedByTest =
      allSessionsHaveTests && !baselineTests.isDisjoint(with: candidateTests)
    let keys = order.filter { baseline[$0] != nil || candidate[$0] != nil }
    var drafts = keys.map { key in
      RowDraft(
        key: key, baseline: baseline[key] ?? SidePool(), candidate: candidate[key] ?? SidePool(),
        movedFrom: movedFrom[key], stratified: stratifiedByTest, options: options)
    }
    // Holm over every regression test that can decide a verdict; BH q-values shown beside.
    // Improvement tests never decide an exit code: their family has BH q-values only.
    var worse: [(row: Int, test: Int, pValue: Double)] = []
    var better: [(row: Int, test: Int, pValue: Double)] = []
    for (index, draft) in drafts.enumerated() where draft.judgeable {
      for (test, raw) in [draft.errorWorse, draft.latencyWorse].enumerated() {
        if let raw { worse.append((index, test, raw.pValue)) }
      }
      for (test, raw) in [draft.errorBetter, draft.latencyBetter].enumerated() {
        if let raw { better.append((index, test, raw.pValue)) }
      }
    }
    let holm = MultipleComparisons.holm(worse.map(\.pValue))
    let worseQ = MultipleComparisons.benjaminiHochberg(worse.map(\.pValue))
    for (position, entry) in worse.enumerated() {
      drafts[entry.row].adjusted[entry.test] = (holm[position], worseQ[position])
    }
    let betterQ = MultipleComparisons.benjaminiHochberg(better.map(\.pValue))
    for (position, entry) in better.enumerated() {
      drafts[entry.row].betterQ[entry.test] = betterQ[position]
    }
    rows = drafts.map { $0.row() }.sorted { left, right in
      let rank = DiffRow.Verdict.allCases
      let l = rank.firstIndex(of: left.verdict)!
      let r = rank.firstIndex(of: right.verdict)!
      return (l, left.key.display) < (r, right.key.display)
    }
    // The rows hold everything a reader needs; the pooled durations go.
    pools = [.baseline: [:], .candidate: [:]]
  }
}
