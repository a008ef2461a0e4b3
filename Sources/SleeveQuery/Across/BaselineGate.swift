/// The gate's checks against a baseline (`sleeve check --baseline`): per handler, its error
/// rate, its latency and any new failure type, each a ``GateCheck``.
///
/// A regression rolls back only when it reproduces, as Argo Rollouts' `failureLimit` says: it
/// must be found in at least `failureLimit` of the candidate sessions, each judged on its own
/// against the baseline. Found in fewer, the check is `insufficient` (the gate holds) and says
/// in how many. The numbers shown are the pooled candidate's.
///
/// Not counted (`advisory`, with why): a handler no baseline session ran (nothing to judge it
/// against), one no candidate session ran, and a quarantined one.
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
      let subject = row.key.display
      let floor = pooled.options.minSamples
      let n = min(row.baseline.n, row.candidate.n)
      if let reason = advisoryReason(row, quarantined: quarantined(row)) {
        var check = GateCheck(
          subject: subject, metric: .errorRateVersusBaseline, value: row.candidate.errorRate,
          threshold: row.baseline.errorRate ?? 0, n: n, minSamples: floor, verdict: .advisory,
          pValue: nil, detail: "not counted: " + reason)
        check.site = row.site
        checks.append(check)
        continue
      }
      func reproduced(_ cause: DiffRow.Cause) -> Int {
        byKey.filter { $0[row.key]?.causes.contains(cause) == true }.count
      }
      func verdict(_ cause: DiffRow.Cause) -> (GateCheck.Verdict, String?) {
        let found = reproduced(cause)
        if found >= failureLimit { return (.breach, countNote(found, of: sessions.count)) }
        if found > 0 || row.causes.contains(cause) {
          return (
            .insufficient,
            countNote(found, of: sessions.count)
              + "; --failure-limit \(failureLimit): not yet reproduced enough to roll back"
          )
        }
        return (row.verdict == .insufficient ? .insufficient : .pass, nil)
      }
      let reasons = row.explanation.joined(separator: "; ")
      let errors = verdict(.errorRate)
      var errorCheck = GateCheck(
        subject: subject, metric: .errorRateVersusBaseline, value: row.candidate.errorRate,
        threshold: row.baseline.errorRate ?? 0, n: n, minSamples: floor, verdict: errors.0,
        pValue: row.errorTest?.holm ?? row.errorTest?.pValue,
        detail: [errors.1, reasons].compactMap { $0 }.joined(separator: "; "))
      errorCheck.methodDetail = row.errorTest?.method
      errorCheck.site = row.site
      let latency = verdict(.latency)
      var latencyCheck = GateCheck(
        subject: subject, metric: .latencyVersusBaseline, value: row.latencyShift,
        threshold: row.minimumShift, n: n, minSamples: floor, verdict: latency.0,
        pValue: row.latencyTest?.holm ?? row.latencyTest?.pValue,
        detail: [latency.1, reasons].compactMap { $0 }.joined(separator: "; "))
      latencyCheck.methodDetail = row.latencyTest?.method
      latencyCheck.site = row.site
      checks += [errorCheck, latencyCheck]
      if !row.newFailureKinds.isEmpty {
        let kinds = verdict(.newFailureType)
        var check = GateCheck(
          subject: subject, metric: .newFailureTypes,
          value: Double(row.newFailureKinds.reduce(0) { $0 + $1.count }), threshold: 0,
          n: row.candidate.n, minSamples: 1, verdict: kinds.0, pValue: nil,
          detail: [
            kinds.1,
            row.newFailureKinds.map { "\($0.kind.display) (\($0.count)×)" }.joined(
              separator: ", "),
          ].compactMap { $0 }.joined(separator: "; "))
        check.site = row.site
        checks.append(check)
      }
    }
    return checks
  }

  private static func advisoryReason(_ row: DiffRow, quarantined: String?) -> String? {
    if let quarantined { return "quarantined (\(quarantined))" }
    switch row.verdict {
    case .new: return "no baseline session ran it"
    case .gone: return "no candidate session ran it"
    default: return nil
    }
  }

  private static func countNote(_ found: Int, of total: Int) -> String {
    "regressed in \(found) of \(total) candidate session\(total == 1 ? "" : "s")"
  }
}
