/// What the gate judges a selection against (`check --baseline` and `report --baseline`):
/// the two sides' sessions, how a change counts, how often it must reproduce, and which
/// handlers are not counted. ``QueryDatabase/gate(matching:thresholds:options:against:)``
/// is the one place that judges it, so every command that takes a baseline decides alike.
public struct BaselineRequest: Sendable {
  /// Which handlers the comparison does not count.
  public enum Quarantine: String, CaseIterable, Sendable {
    /// The quarantine list's (the default).
    case list
    /// The list's, and those `sleeve flaky` judges flaky now (all sessions of its window).
    case flaky
    /// None: every handler counts.
    case none
  }

  /// The sessions judged against, oldest first.
  public var baseline: [SessionSummary]
  /// The sessions judged, oldest first.
  public var candidate: [SessionSummary]
  /// The smallest changes that count and the sample floor of each side.
  public var options: DiffOptions
  /// In how many candidate sessions a regression must be found to roll back (at least 1).
  public var failureLimit: Int
  /// Which handlers are not counted.
  public var quarantine: Quarantine
  /// Per handler, its baseline sessions (`since=change`); `nil`: all of ``baseline``.
  public var handlerBaselines: HandlerBaselines?

  /// A request; `failureLimit` below 1 counts as 1.
  public init(
    baseline: [SessionSummary], candidate: [SessionSummary], options: DiffOptions = DiffOptions(),
    failureLimit: Int = 1, quarantine: Quarantine = .list,
    handlerBaselines: HandlerBaselines? = nil
  ) {
    self.handlerBaselines = handlerBaselines
    self.baseline = baseline
    self.candidate = candidate
    self.options = options
    self.failureLimit = max(1, failureLimit)
    self.quarantine = quarantine
  }

  /// Both sides' sessions once each, oldest first (what a trend across them draws).
  public var sessions: [SessionSummary] {
    var seen: Set<Int64> = []
    return (baseline + candidate).filter { seen.insert($0.id).inserted }
      .sorted { ($0.startedUnixNanoseconds, $0.id) < ($1.startedUnixNanoseconds, $1.id) }
  }
}

extension QueryDatabase {
  /// The checks against the baseline: the candidate sessions pooled for the numbers, and
  /// each alone (when there are several) for how often a regression reproduces.
  func baselineChecks(_ request: BaselineRequest, filter: QueryFilter) throws -> [GateCheck] {
    let diffs = try diffs(
      baseline: request.baseline, candidate: request.candidate, filter: filter, by: .handler,
      options: request.options, eachAlone: request.candidate.count > 1,
      baselines: request.handlerBaselines)
    let quarantined = try quarantineReasons(request.quarantine, filter: filter)
    return BaselineGate.checks(
      pooled: diffs.together, perSession: diffs.each, failureLimit: request.failureLimit,
      quarantined: quarantined)
  }

  /// Why a row is not counted under `quarantine`, or `nil` when it is.
  private func quarantineReasons(_ quarantine: BaselineRequest.Quarantine, filter: QueryFilter)
    throws -> (DiffRow) -> String?
  {
    guard quarantine != .none else { return { _ in nil } }
    let entries = try self.quarantine()
    var flaky: Set<GroupKey> = []
    if quarantine == .flaky {
      let all = filter.handlersOnly
      let analysis = try flakyAnalysis(
        of: try sessions(matching: all), filter: all, options: FlakyAnalysis.Options())
      flaky = Set(analysis.findings(.flaky).map(\.key))
    }
    return { row in
      if let entry = entries.entry(for: row.key, site: row.site) {
        return "quarantine list: \(entry.reason)"
      }
      return flaky.contains(row.key) ? "judged flaky by sleeve flaky, --quarantine flaky" : nil
    }
  }
}
