import SleeveStore

/// Which rows a query may answer from: the one home of `--exact` and `--method`.
public enum AnswerMethod: String, CaseIterable, Equatable, Sendable {
  /// Summaries whenever every selected session has them (unterminated and running sessions
  /// are summarized on demand from their raw rows), raw rows otherwise.
  case automatic = "auto"
  /// Raw outcome rows (`--exact`): exact percentiles by linear interpolation; refused for a
  /// pruned session.
  case exact
  /// Summaries (`--method histogram`): percentiles by rank (numpy `method='lower'`) within the
  /// histograms' relative error; refused when an ended session has none.
  case histogram
}

/// What a query's answer is read from, decided before it reads: raw rows for every selected
/// session, or summaries for every one. Never a mix: a selection that can be answered neither
/// way is refused, naming the sessions that stand in the way.
public struct AnswerPlan: Equatable, Sendable {
  /// Where the numbers come from.
  public enum Source: String, Equatable, Sendable {
    /// Raw outcome rows.
    case rawRows = "raw rows"
    /// Summary histograms and counts.
    case summaries
  }

  /// Raw rows or summaries, for every selected session alike.
  public let source: Source
  /// Selected sessions whose raw fires and outcomes were pruned (only answered from summaries).
  public let pruned: [Int64]
  /// Selected sessions without stored summaries that are summarized on demand from their raw
  /// rows because they have not ended (with `source == .summaries`).
  public let summarizedOnDemand: [Int64]

  /// The largest relative error a histogram percentile of this answer can have (every
  /// summary is written at ``ExponentialHistogram``'s default scale, 5: 1.083%); `nil` for
  /// raw rows, whose percentiles are exact.
  public var relativeError: Double? {
    source == .summaries ? ExponentialHistogram().relativeError : nil
  }

  /// The sentence outputs print, e.g. `Answered from summaries: percentiles by rank (numpy
  /// 'lower') within ±1.083%.` Names pruned sessions.
  public var sentence: String {
    var text: String
    switch source {
    case .rawRows:
      text = "Answered from raw rows (exact)."
    case .summaries:
      text =
        "Answered from summaries: percentiles by rank (numpy 'lower') within "
        + "\(Self.bound(relativeError ?? 0)); --exact reads raw rows."
    }
    if let prunedSentence { text += " " + prunedSentence }
    return text
  }

  /// `Raw rows are gone (pruned) for session 1.`, or `nil` when no selected session was
  /// pruned: all an answer that prints no percentile (error rates) says of its plan.
  public var prunedSentence: String? {
    pruned.isEmpty ? nil : "Raw rows are gone (pruned) for \(QueryError.sessionList(pruned))."
  }

  /// ``sentence`` for an answer that also shows a percentage rollout's per-share cohorts
  /// (`showsStages`): those are read from raw rows whatever the plan (summaries are per
  /// handler and variant, not per share), so beside summaries the sentence says so too, and
  /// every figure is printed under the plan it came from.
  public func sentence(showsStages: Bool) -> String {
    guard showsStages, source == .summaries else { return sentence }
    return sentence + " " + Self.stagesSentence
  }

  /// `Per-share rollout cohorts: from raw rows (exact), percentiles by linear interpolation.`
  public static let stagesSentence =
    "Per-share rollout cohorts: from raw rows (exact), percentiles by linear interpolation."

  /// How a histogram percentile is computed, as outputs name it.
  public static let histogramPercentileMethod =
    "by rank, numpy method='lower' (the value at rank floor((n-1)p/100)), from base-2 "
    + "exponential histograms"

  /// How this plan's percentiles are computed, as outputs name it: by rank from the
  /// histograms (``histogramPercentileMethod``) from summaries, by linear interpolation
  /// (``Percentile/method``) from raw rows.
  public var percentileMethod: String {
    source == .summaries ? Self.histogramPercentileMethod : Percentile.method
  }

  /// `±1.083%`: a relative error as outputs show it beside a value (three decimals of a
  /// percent, to the nearest: scale 5's 1.08300…% shows as 1.083%).
  public static func bound(_ fraction: Double) -> String {
    let thousandths = Int((min(max(fraction, 0), 1e6) * 100_000).rounded())
    let tail = String(thousandths % 1000)
    return "±\(thousandths / 1000).\(String(repeating: "0", count: 3 - tail.count))\(tail)%"
  }
}

extension QueryDatabase {
  /// How a query over `sessions` answers under `method`, grouped by `grouping`.
  ///
  /// - Throws: ``QueryError/rawRowsPruned(sessions:need:)`` when raw rows are needed
  ///   (`--exact`, `--by event`) and a selected session was pruned;
  ///   ``QueryError/notSummarized(sessions:)`` when summaries are needed (`--method
  ///   histogram`, or pruned sessions beside others) and an ended session has none;
  ///   ``QueryError/summariesCannotAnswer(need:)`` for `--by event` with `--method histogram`.
  public func answerPlan(
    for sessions: [SessionSummary], method: AnswerMethod, grouping: Grouping? = nil
  ) throws -> AnswerPlan {
    try translating {
      let states = try SummaryTables.states(connection: connection)
      var pruned: [Int64] = []
      var lacking: [Int64] = []
      var onDemand: [Int64] = []
      for session in sessions {
        if let state = states[session.id] {
          if state.isPruned { pruned.append(session.id) }
        } else if session.liveness == .ended {
          lacking.append(session.id)
        } else {
          onDemand.append(session.id)
        }
      }
      func raw(need: String) throws -> AnswerPlan {
        guard pruned.isEmpty else { throw QueryError.rawRowsPruned(sessions: pruned, need: need) }
        return AnswerPlan(source: .rawRows, pruned: [], summarizedOnDemand: [])
      }
      func summaries() throws -> AnswerPlan {
        guard lacking.isEmpty else { throw QueryError.notSummarized(sessions: lacking) }
        return AnswerPlan(source: .summaries, pruned: pruned, summarizedOnDemand: onDemand)
      }
      // Outcomes are summarized per handler, not per event: `--by event` reads the fires, and
      // is refused with `--method histogram` (summaries only), as any answer that needs raw
      // rows the chosen method does not read.
      if grouping == .event {
        guard method != .histogram else {
          throw QueryError.summariesCannotAnswer(need: "--by event")
        }
        return try raw(need: "--by event")
      }
      switch method {
      case .exact: return try raw(need: "--exact")
      case .histogram: return try summaries()
      case .automatic:
        // Raw rows for all when any ended session lacks summaries, unless some are pruned:
        // then neither way answers every session alike, and the error names the ones to add.
        if sessions.isEmpty || (!lacking.isEmpty && pruned.isEmpty) {
          return AnswerPlan(source: .rawRows, pruned: [], summarizedOnDemand: [])
        }
        return try summaries()
      }
    }
  }
}
