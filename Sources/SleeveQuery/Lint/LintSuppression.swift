import SleeveStore

/// One suppressed (check, site), as `sleeve lint suppressions` shows it.
public typealias LintSuppression = LintSuppressionLedger.Entry
