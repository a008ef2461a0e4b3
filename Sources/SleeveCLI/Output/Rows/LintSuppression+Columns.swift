import SleeveQuery

extension LintSuppression {
  /// The columns of `sleeve lint suppressions`: the check and the site it covers, then why,
  /// who and when.
  static let columns = Columns<LintSuppression>(
    [
      .text("check", json: "check") { $0.check },
      .text("site", json: "site") { $0.site },
    ]
      + LedgerEntryColumns.columns(
        reason: { $0.reason }, actor: { $0.actor }, added: { $0.addedUnixNanoseconds }))
}
