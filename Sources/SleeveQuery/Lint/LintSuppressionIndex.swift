import SleeveStore

/// The file's suppressions (read through ``LintSuppressionLedger``, their one home), keyed for
/// matching findings: check id and site (or, for a control's own finding, the control's name),
/// exactly as recorded.
struct LintSuppressionIndex {
  private var byKey: [Key: LintSuppressionMatch] = [:]

  private struct Key: Hashable {
    let check: String
    let site: String
  }

  init(database: QueryDatabase) throws {
    for entry in try LintSuppressionLedger(connection: database.connection).entries() {
      byKey[Key(check: entry.check, site: entry.site)] = LintSuppressionMatch(
        reason: entry.reason, actor: entry.actor)
    }
  }

  /// The suppression covering `finding`, if any: the first of its
  /// ``LintFinding/suppressionKeys`` suppressed for its check.
  func match(_ finding: LintFinding) -> LintSuppressionMatch? {
    for key in finding.suppressionKeys {
      if let match = byKey[Key(check: finding.check.id, site: key)] { return match }
    }
    return nil
  }
}
