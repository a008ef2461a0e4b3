import SleeveStore

/// One quarantined handler, as `sleeve quarantine list` shows it and `sleeve check` reads it.
public typealias QuarantineEntry = QuarantineLedger.Entry

extension QuarantineLedger.Entry {
  /// Whether this entry quarantines the handler keyed `key` (registered at `site`): its name
  /// is the handler's name as reports show it, or its registration site, and its control is
  /// `nil` (every control) or the handler's control. Only `.handler` keys match.
  ///
  /// ```swift
  /// let quarantined = entries.contains { $0.matches(tally.groupKey, site: tally.site) }
  /// ```
  public func matches(_ key: GroupKey, site: String? = nil) -> Bool {
    guard case .handler(let control, let name) = key else { return false }
    if let wanted = self.control, wanted != control { return false }
    return handler == name || (site != nil && handler == site)
  }
}

extension [QuarantineEntry] {
  /// The first entry that quarantines the handler keyed `key` (registered at `site`), or
  /// `nil`: the one place the quarantine list is matched against a handler
  /// (``QuarantineLedger/Entry/matches(_:site:)``), by `sleeve flaky` and by the gate alike.
  public func entry(for key: GroupKey, site: String?) -> QuarantineEntry? {
    first { $0.matches(key, site: site) }
  }
}
