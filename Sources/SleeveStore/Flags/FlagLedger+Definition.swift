extension FlagLedger.Definition {
  /// Reads a definition from the `flags` columns `owner, max_error_rate, max_p99_ns,
  /// min_samples` starting at `column`, checking every value a file could hold: a threshold
  /// that is text, out of range or not finite is damage (never read as 0, which would decide a
  /// gate), so a verdict is never made from it.
  ///
  /// - Throws: `StoreError.corrupt` naming the flag and the value.
  public init(reading statement: Statement, from column: Int32, key: String, path: String)
    throws(StoreError)
  {
    func damaged(_ what: String, _ value: SQLValue) -> StoreError {
      .corrupt(path: path, detail: "flag '\(key)' has \(what) \(value.damageText) in table flags")
    }
    let rate = statement.value(at: column + 1)
    let maxErrorRate: Double?
    switch rate {
    case .null: maxErrorRate = nil
    case .integer(let value) where (0...1).contains(value): maxErrorRate = Double(value)
    case .real(let value) where value.isFinite && (0...1).contains(value): maxErrorRate = value
    default: throw damaged("max_error_rate", rate)
    }
    let p99 = statement.value(at: column + 2)
    let maxP99: Int64?
    switch p99 {
    case .null: maxP99 = nil
    case .integer(let value) where value >= 0: maxP99 = value
    default: throw damaged("max_p99_ns", p99)
    }
    let samples = statement.value(at: column + 3)
    guard case .integer(let minSamples) = samples, (0...1_000_000_000).contains(minSamples) else {
      throw damaged("min_samples", samples)
    }
    self.init(
      owner: statement.text(at: column) ?? "", maxErrorRate: maxErrorRate,
      maxP99Nanoseconds: maxP99, minSamples: Int(minSamples))
  }
}
