/// `sleeve flaky`'s question as one answer, read in one snapshot: the analysis of the
/// selected sessions, and each handler's finding with the quarantine entry that covers it.
public struct FlakyAnswer: Sendable {
  /// One handler's finding and its quarantine state.
  public struct Row: Sendable {
    /// What the analysis found.
    public let finding: FlakyAnalysis.Finding
    /// The quarantine list's entry for the handler, or `nil` when it is not quarantined.
    public let quarantine: QuarantineEntry?

    /// Whether the quarantine list covers the handler.
    public var quarantined: Bool { quarantine != nil }
  }

  /// The analysis: options, commits and sessions judged, notes.
  public let analysis: FlakyAnalysis
  /// Every finding, in the analysis' order, with its quarantine state.
  public let rows: [Row]
  /// One sentence per `--control`, `--handler` or `--flag` filter that matched nothing.
  public let unmatchedFilters: [String]
}

extension QueryDatabase {
  /// Judges the sessions `filter` selects for flakiness under `options`, reading the outcomes
  /// of the window's sessions only (``FlakyAnalysis/judgedSessions(of:options:)``), and
  /// matches each finding against the quarantine list, in one snapshot.
  ///
  /// - Throws: ``QueryError/sessionNotFound(_:)`` when no session matches.
  public func flakyAnswer(matching filter: QueryFilter, options: FlakyAnalysis.Options)
    throws -> FlakyAnswer
  {
    try translating {
      let sessions = try sessions(matching: filter)
      let unmatched = try unmatchedFilters(filter, in: sessions)
      let analysis = try flakyAnalysis(of: sessions, filter: filter, options: options)
      let quarantine = try self.quarantine()
      return FlakyAnswer(
        analysis: analysis,
        rows: analysis.findings.map {
          FlakyAnswer.Row(finding: $0, quarantine: quarantine.entry(for: $0.key, site: $0.site))
        }, unmatchedFilters: unmatched)
    }
  }

  /// The flaky analysis of `sessions` (selected by `filter`) under `options`: the one way
  /// `sleeve flaky` and the gate's `--quarantine flaky` judge, reading the outcomes of the
  /// window's sessions only.
  func flakyAnalysis(
    of sessions: [SessionSummary], filter: QueryFilter, options: FlakyAnalysis.Options
  ) throws -> FlakyAnalysis {
    try translating {
      let judged = FlakyAnalysis.judgedSessions(of: sessions, options: options)
      return FlakyAnalysis(
        try tallies(of: judged, filter: filter, by: .handler, collectDurations: false),
        selected: sessions, options: options)
    }
  }
}
