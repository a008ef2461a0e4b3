import SleeveQuery

/// How checks and verdicts read in tables and JSON (shared by `check` and `report`).
enum VerdictTable {
  /// One row per check: what, value, threshold, n, floor, p-value, verdict, method; with
  /// `detail`, a last column saying why (what a check against a baseline found).
  static func table(_ checks: [GateCheck], detail: Bool = false) -> Table {
    var table = Table(
      columns: [
        "check", "metric", "value", "threshold", "n", "min samples", "p-value", "verdict",
        "method",
      ] + (detail ? ["detail"] : []), numeric: [2, 3, 4, 5, 6], freeText: detail ? [8, 9] : [8])
    for check in checks {
      table.rows.append(
        [
          Table.Cell(check.subject), Table.Cell(check.metric.rawValue),
          Table.Cell(value(check), raw: Formatting.raw(check.value)),
          Table.Cell(
            threshold(check), raw: Formatting.raw(check.thresholdKnown ? check.threshold : nil)),
          Table.Cell(String(check.n)), Table.Cell(String(check.minSamples)),
          Table.Cell(pValue(check.pValue), raw: Formatting.raw(check.pValue)),
          Table.Cell(check.verdict.rawValue, tone: Tone.ofVerdict(check.verdict.rawValue)),
          Table.Cell(check.method),
        ] + (detail ? [Table.Cell(check.detail ?? "")] : []))
    }
    return table
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
  static func check(_ check: GateCheck) -> JSONValue {
    .object([
      ("subject", .string(check.subject)), ("metric", .string(check.metric.rawValue)),
      ("value", .number(check.value)),
      ("threshold", check.thresholdKnown ? .number(check.threshold) : .null),
      ("n", .integer(check.n)), ("minSamples", .integer(check.minSamples)),
      ("pValue", .number(check.pValue)), ("verdict", .string(check.verdict.rawValue)),
      ("method", .string(check.method)), ("detail", .text(check.detail)),
      ("site", .text(check.site)),
    ])
  }

  static func flag(_ verdict: FlagVerdict) -> JSONValue {
    .object([
      ("flag", .string(verdict.flag)), ("decision", .string(verdict.decision.rawValue)),
      ("notes", .array(verdict.notes.map { .string($0) })),
      ("checks", .array(verdict.checks.map(check))),
    ])
  }
}
