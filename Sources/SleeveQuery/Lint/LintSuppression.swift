import SleeveStore

/// One suppressed (check, site), as `sleeve lint suppressions` shows it and the lint analysis
/// reads it.
public typealias LintSuppression = LintSuppressionLedger.Entry

extension LintSuppressionLedger.Entry {
  /// Whether this suppression covers `finding`: the same check id, and its site is the
  /// finding's ``LintFinding/suppressionKey`` (the registration site, else the control's
  /// name), compared as recorded.
  ///
  /// ```swift
  /// let covering = suppressions.first { $0.covers(finding) }
  /// ```
  public func covers(_ finding: LintFinding) -> Bool {
    check == finding.check.id && site == finding.suppressionKey
  }

  /// What a finding this entry covers carries in ``LintFinding/suppression``.
  public var match: LintSuppressionMatch {
    LintSuppressionMatch(reason: reason, actor: actor)
  }
}
