import SleeveStore

/// The suppressions of the file, matched against findings: check id and site (or, for a
/// control's own finding, the control's name), exactly as recorded.
struct LintSuppressions {
  private var byKey: [Key: LintSuppressionMatch] = [:]

  private struct Key: Hashable {
    let check: String
    let site: String
  }

  init(database: QueryDatabase) throws {
    let statement = try database.connection.prepare(
      "SELECT check_id, site, reason, actor FROM lint_suppressions")
    while try statement.step() {
      byKey[Key(check: statement.text(at: 0) ?? "", site: statement.text(at: 1) ?? "")] =
        LintSuppressionMatch(reason: statement.text(at: 2) ?? "", actor: statement.text(at: 3))
    }
  }

  /// The suppression covering `finding`, if any.
  func match(_ finding: LintFinding) -> LintSuppressionMatch? {
    byKey[Key(check: finding.check.id, site: finding.suppressionKey)]
  }
}
