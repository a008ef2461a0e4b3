import Foundation
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// The exit-code tables of README (short) and of `docs/guide/output.md` (in full) list exactly
/// the codes `sleeve help` documents (`ExitCode.documented`), in the same order.
@Suite("Exit-code tables")
struct ExitCodeTableTests {
  /// The codes in the first column of the `| code | meaning |` table after `heading` in
  /// `document`.
  static func codes(after heading: String, in document: String) throws -> [Int32] {
    let lines = try ReadmeSnippet.section(heading, of: document)
      .split(separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(lines.firstIndex { $0.hasPrefix("| code | meaning |") })
    return try lines[(start + 2)...].prefix { $0.hasPrefix("|") }.map { line in
      let cell = line.split(separator: "|").first?.trimmingCharacters(in: .whitespaces) ?? ""
      return try #require(Int32(cell), "not a code: \(line)")
    }
  }

  @Test(
    "README and the output page list exactly the documented exit codes, in order",
    arguments: [("README.md", "### Exit codes"), ("docs/guide/output.md", "## Exit codes")])
  func tablesListTheDocumentedCodes(document: String, heading: String) throws {
    let codes = try Self.codes(after: heading, in: document)
    #expect(codes == ExitCode.documented.map(\.code.rawValue), "\(document)")
  }
}
