import SleeveStore

extension QueryDatabase {
  /// The lint suppressions, by check id, then site. A file from before migration 0004 has
  /// none: its list is empty, and the file is left as it is.
  ///
  /// ```swift
  /// let suppressions = try database.lintSuppressions()
  /// let sites = suppressions.filter { $0.check == LintCheck.mixedWiring.id }.map(\.site)
  /// ```
  ///
  /// - Throws: `QueryError` when the file cannot be read.
  public func lintSuppressions() throws -> [LintSuppression] {
    try translating { try LintSuppressionLedger(connection: connection).entries() }
  }
}
