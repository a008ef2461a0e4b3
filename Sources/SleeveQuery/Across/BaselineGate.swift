/// The gate's checks against a baseline (`sleeve check --baseline`): per handler, its error
/// rate, its latency and any new failure type, each a ``GateCheck``.
///
/// A regression rolls back only when it reproduces, as Argo Rollouts' `failureLimit` says: it
/// must be found in at least `failureLimit` of the candidate sessions, each judged on its own
/// against the baseline. Found in fewer, the check is `insufficient` (the gate holds) and says
/// in how many. A check decided by the sessions alone shows the figures of the session where
/// it regressed most (its value, the baseline's, its n and its p-value), and the detail says
/// which session that is and what the pooled candidate showed; otherwise it shows the pooled
/// candidate's.
///
/// Not counted (`advisory`, with why): a handler no baseline session ran (nothing to judge it
/// against: no threshold, the candidate's n), one no candidate session ran (the baseline's n),
/// and a quarantined one.
public enum BaselineGate {
  /// The checks.
  ///
  /// - Parameters:
  ///   - pooled: Every candidate session together against the baseline.
  ///   - perSession: Each candidate session alone against the baseline (empty for one).
  ///   - failureLimit: In how many candidate sessions a regression must be found.
  ///   - quarantined: Why a row's handler is not counted, or `nil` when it is.
  public static func checks(
    pooled: BaselineDiff, perSession: [BaselineDiff], failureLimit: Int,
    quarantined: (DiffRow) -> String?
  ) -> [GateCheck] {
    let sessions = perSession.isEmpty ? [pooled] : perSession
    let byKey = sessions.map { diff in
      Dictionary(diff.rows.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    }
    var checks: [GateCheck] = []
    for row in pooled.rows {
      if let reason = advisoryReason(row, quarantined: quarantined(row)) {
        checks.append(advisory(row, reason: reason, floor: pooled.options.minSamples))
        continue
      }
      let judge = Judge(
        row: row,
        alone: perSession.isEmpty
          ? []
          : zip(sessions, byKey).compactMap { diff, rows in
            rows[row.key].map { (session: diff.candidateSessions.first, row: $0) }
          }, total: sessions.count, failureLimit: failureLimit, floor: pooled.options.minSamples)
      checks += [judge.errorRate(), judge.latency()]
      if !row.newFailureKinds.isEmpty { checks.append(judge.newFailureTypes()) }
    }
    return checks
  }

  /// A row not counted: its figures as far as both sides have them, and why.
  private static func advisory(_ row: DiffRow, reason: String, floor: Int) -> GateCheck {
    let bothRan = row.baseline.n > 0 && row.candidate.n > 0
    var check = GateCheck(
      subject: row.key.display, metric: .errorRateVersusBaseline, value: row.candidate.errorRate,
      threshold: row.baseline.errorRate ?? 0,
      n: bothRan ? min(row.baseline.n, row.candidate.n) : max(row.baseline.n, row.candidate.n),
      minSamples: floor, verdict: .advisory, pValue: nil, detail: "not counted: " + reason)
    check.thresholdKnown = row.baseline.errorRate != nil
    check.site = row.site
    return check
  }

  /// Judges one pooled row's causes against how often each reproduced in the sessions alone.
  private struct Judge {
    let row: DiffRow
    /// Each candidate session's own row (empty when there is one candidate session).
    let alone: [(session: SessionSummary?, row: DiffRow)]
    let total: Int
    let failureLimit: Int
    let floor: Int

    /// The verdict of `cause`, the row whose figures the check shows, and what to say.
    func decide(_ cause: DiffRow.Cause, strength: (DiffRow) -> Double) -> (
      verdict: GateCheck.Verdict, shown: DiffRow, notes: [String], reasons: [String]
    ) {
      let found = alone.filter { $0.row.causes.contains(cause) }
      let strongest = found.min { strength($0.row) < strength($1.row) }
      let shown = strongest?.row ?? row
      var notes: [String] = []
      if !alone.isEmpty && (!found.isEmpty || row.causes.contains(cause)) {
        notes.append("regressed in \(found.count) of \(total) candidate sessions")
      } else if alone.isEmpty && row.causes.contains(cause) {
        notes.append("regressed in 1 of 1 candidate session")
      }
      if let strongest {
        let id = strongest.session.map { "session \($0.id)" } ?? "one session"
        notes.append(
          "figures of \(id), where it regressed most; pooled over the \(total) candidate "
            + "sessions: " + pooledFigures(cause))
      }
      let reproduced = alone.isEmpty ? (row.causes.contains(cause) ? 1 : 0) : found.count
      let verdict: GateCheck.Verdict
      if reproduced >= failureLimit && reproduced > 0 {
        verdict = .breach
      } else if reproduced > 0 || row.causes.contains(cause) {
        verdict = .insufficient
        notes.append("--failure-limit \(failureLimit): not yet reproduced enough to roll back")
      } else {
        verdict = row.verdict == .insufficient ? .insufficient : .pass
      }
      return (verdict, shown, notes, shown.explanation)
    }

    func errorRate() -> GateCheck {
      let (verdict, shown, notes, reasons) = decide(.errorRate) {
        $0.errorTest?.holm ?? $0.errorTest?.pValue ?? 1
      }
      var check = GateCheck(
        subject: row.key.display, metric: .errorRateVersusBaseline,
        value: shown.candidate.errorRate, threshold: shown.baseline.errorRate ?? 0,
        n: min(shown.baseline.n, shown.candidate.n), minSamples: floor, verdict: verdict,
        pValue: shown.errorTest?.holm ?? shown.errorTest?.pValue, detail: text(notes + reasons))
      check.methodDetail = shown.errorTest?.method
      check.site = row.site
      return check
    }

    func latency() -> GateCheck {
      let (verdict, shown, notes, reasons) = decide(.latency) {
        $0.latencyTest?.holm ?? $0.latencyTest?.pValue ?? 1
      }
      var check = GateCheck(
        subject: row.key.display, metric: .latencyVersusBaseline, value: shown.latencyShift,
        threshold: shown.minimumShift, n: min(shown.baseline.n, shown.candidate.n),
        minSamples: floor, verdict: verdict,
        pValue: shown.latencyTest?.holm ?? shown.latencyTest?.pValue, detail: text(notes + reasons))
      check.methodDetail = shown.latencyTest?.method
      check.site = row.site
      return check
    }

    func newFailureTypes() -> GateCheck {
      let (verdict, shown, notes, _) = decide(.newFailureType) {
        -Double($0.newFailureKinds.reduce(0) { $0 + $1.count })
      }
      let kinds = shown.newFailureKinds.isEmpty ? row.newFailureKinds : shown.newFailureKinds
      var check = GateCheck(
        subject: row.key.display, metric: .newFailureTypes,
        value: Double(kinds.reduce(0) { $0 + $1.count }), threshold: 0, n: shown.candidate.n,
        minSamples: 1, verdict: verdict, pValue: nil,
        detail: text(
          notes + [kinds.map { "\($0.kind.display) (\($0.count)×)" }.joined(separator: ", ")]))
      check.site = row.site
      return check
    }

    /// The pooled candidate's figures for `cause`.
    private func pooledFigures(_ cause: DiffRow.Cause) -> String {
      switch cause {
      case .errorRate:
        return NumberText.percent(row.candidate.errorRate) + " against "
          + NumberText.percent(row.baseline.errorRate) + ", p "
          + NumberText.pValue(row.errorTest?.holm ?? row.errorTest?.pValue)
      case .latency:
        return "shift " + NumberText.duration(row.latencyShift) + ", p "
          + NumberText.pValue(row.latencyTest?.holm ?? row.latencyTest?.pValue)
      case .newFailureType:
        return "\(row.newFailureKinds.reduce(0) { $0 + $1.count }) of a new type"
      }
    }

    /// The notes as one line, empty ones left out.
    private func text(_ notes: [String]) -> String {
      notes.filter { !$0.isEmpty }.joined(separator: "; ")
    }
  }

  private static func advisoryReason(_ row: DiffRow, quarantined: String?) -> String? {
    if let quarantined { return "quarantined (\(quarantined))" }
    switch row.verdict {
    case .new: return "no baseline session ran it"
    case .gone: return "no candidate session ran it"
    default: return nil
    }
  }
}
