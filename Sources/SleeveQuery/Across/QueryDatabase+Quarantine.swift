import SleeveStore

extension QueryDatabase {
  /// The quarantine list, by handler (the every-control entry first). A file from before
  /// migration 0003 has none: its list is empty.
  ///
  /// ```swift
  /// let entries = try database.quarantine()
  /// let advisory = entries.contains { $0.matches(.handler(control: "Pay", name: "submit")) }
  /// ```
  ///
  /// - Throws: `QueryError` when the file cannot be read.
  public func quarantine() throws -> [QuarantineEntry] {
    try translating { try QuarantineLedger(connection: connection).entries() }
  }
}
