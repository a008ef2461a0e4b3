import Foundation
import SleeveQuery
import Testing

/// The check table under "Lint: closure-sleeve pitfalls" (`docs/guide/lint.md`) is the code's
/// catalogue: the same checks in the same order, each with its severity, its pitfall and its fix.
@Suite("Lint table in the lint reference page")
struct LintReadmeTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The table's rows after the section's heading, each as its cells.
  static func rows() throws -> [[String]] {
    let page = try String(
      contentsOf: root.appendingPathComponent("docs/guide/lint.md"), encoding: .utf8)
    let section = try #require(page.range(of: "## Lint: closure-sleeve pitfalls\n"))
    let lines = page[section.upperBound...].split(
      separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(lines.firstIndex { $0.hasPrefix("| check |") })
    #expect(lines[start] == "| check | severity | what it finds | the fix |")
    return lines[(start + 2)...].prefix { $0.hasPrefix("|") }.map { line in
      line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
        .map { $0.trimmingCharacters(in: .whitespaces) }
    }
  }

  @Test(
    "the lint page's table lists every LintCheck in order with its id, severity, pitfall and fix")
  func tableIsTheCatalogue() throws {
    let expected = LintCheck.allCases.map { check -> [String] in
      // The explanation is the pitfall, then the fix, at its first "; ".
      let parts = check.explanation.components(separatedBy: "; ")
      return [
        "`\(check.id)`", check.severity.rawValue, parts[0],
        parts.dropFirst().joined(separator: "; "),
      ]
    }
    #expect(try Self.rows() == expected)
  }
}
