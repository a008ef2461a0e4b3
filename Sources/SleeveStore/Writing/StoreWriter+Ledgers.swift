/// The flag-state and ledger writes: each goes through the ledger that owns its table.
extension StoreWriter {
  /// Whether the database has ever seen flag `key` (``FlagLedger/knows(_:)``).
  public func knowsFlag(_ key: String) throws -> Bool {
    try FlagLedger(connection: connection).knows(key)
  }

  /// Records a flag state change made outside any session, in one transaction
  /// (``FlagLedger/record(_:)``).
  public func recordFlagChange(_ change: FlagLedger.Change) throws {
    try FlagLedger(connection: connection).record(change)
  }

  /// Quarantines a handler, or updates its entry (``QuarantineLedger/add(_:)``).
  ///
  /// - Returns: `true` when the entry is new, `false` when an existing one was updated.
  @discardableResult
  public func quarantine(_ entry: QuarantineLedger.Entry) throws -> Bool {
    try QuarantineLedger(connection: connection).add(entry)
  }

  /// Takes `handler` on `control` (`nil`: the every-control entry) out of quarantine
  /// (``QuarantineLedger/remove(handler:control:)``).
  ///
  /// - Returns: whether there was such an entry.
  public func liftQuarantine(handler: String, control: String?) throws -> Bool {
    try QuarantineLedger(connection: connection).remove(handler: handler, control: control)
  }

  /// Suppresses a lint check at a site, or updates the suppression
  /// (``LintSuppressionLedger/add(_:)``).
  ///
  /// - Returns: `true` when the suppression is new, `false` when an existing one was updated.
  @discardableResult
  public func suppress(_ entry: LintSuppressionLedger.Entry) throws -> Bool {
    try LintSuppressionLedger(connection: connection).add(entry)
  }

  /// Lifts the suppression of `check` at `site`
  /// (``LintSuppressionLedger/remove(check:site:)``).
  ///
  /// - Returns: whether there was such a suppression.
  public func liftSuppression(check: String, site: String) throws -> Bool {
    try LintSuppressionLedger(connection: connection).remove(check: check, site: site)
  }
}
