import SleeveQuery

/// How checks and verdicts read in tables and JSON (shared by `check` and `report`).
enum VerdictTable {
  /// One row per check (``GateCheck/columns(detail:method:)``); with `detail`, a last column
  /// saying why (what a check against a baseline found).
  static func table(_ checks: [GateCheck], detail: Bool = false) -> Table {
    GateCheck.columns(detail: detail).table(checks)
  }

  /// A p-value with four decimals, `<0.0001` below that, `-` when there is none.
  static func pValue(_ value: Double?) -> String { NumberText.pValue(value) }

  /// The check's value as people read it.
  static func value(_ check: GateCheck) -> String {
    switch check.metric {
    case .p99, .latencyVersusOff, .latencyVersusBaseline: Formatting.duration(check.value)
    case .errorRate, .errorRateVersusOff, .errorRateVersusBaseline:
      Formatting.percent(check.value)
    case .newFailureTypes: check.value.map { Formatting.raw($0) } ?? "-"
    case .sampleRatio: pValue(check.value)
    case .dataLoss: Formatting.percent(check.value)
    case .latencyRatioVersusOff: check.value.map(NumberText.ratio) ?? "-"
    }
  }

  /// The check's threshold as people read it.
  static func threshold(_ check: GateCheck) -> String {
    guard check.thresholdKnown else { return "-" }
    return switch check.metric {
    case .p99, .latencyVersusOff, .latencyVersusBaseline: Formatting.duration(check.threshold)
    case .errorRate, .errorRateVersusOff, .errorRateVersusBaseline:
      Formatting.percent(check.threshold)
    case .newFailureTypes: "0"
    case .sampleRatio: "p \(check.threshold)"
    case .dataLoss: Formatting.percent(check.threshold)
    case .latencyRatioVersusOff: NumberText.ratio(check.threshold)
    }
  }
}

/// The JSON of verdicts and checks, with stable keys.
enum VerdictJSON {
  /// A check's JSON object (``GateCheck/columns(detail:method:)``).
  static func check(_ check: GateCheck) -> JSONValue {
    GateCheck.columns().object(check)
  }

  /// A flag's verdict: the flag, its decision, notes and checks.
  static func flag(_ verdict: FlagVerdict) -> JSONValue {
    .object([
      ("flag", .string(verdict.flag)), ("decision", .string(verdict.decision.rawValue)),
      ("notes", .array(verdict.notes.map { .string($0) })),
      ("checks", .array(verdict.checks.map(check))),
    ])
  }
}
