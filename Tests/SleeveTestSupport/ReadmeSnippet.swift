import Foundation

/// Extracts the example code shown in README.md and the code a test runs, for comparison.
public enum ReadmeSnippet {
  /// The lines strictly between the first line equal to `begin` and the next equal to `end`.
  public static func between(_ begin: String, _ end: String, in text: String) -> [String]? {
    let lines = text.components(separatedBy: "\n")
    guard
      let start = lines.firstIndex(where: {
        $0.trimmingCharacters(in: .whitespaces) == begin
      }),
      let stop = lines[start...].firstIndex(where: {
        $0.trimmingCharacters(in: .whitespaces) == end
      })
    else { return nil }
    return Array(lines[(start + 1)..<stop])
  }

  /// The first ```swift block after `heading`.
  public static func swiftBlock(after heading: String, in markdown: String) -> [String]? {
    guard let range = markdown.range(of: heading) else { return nil }
    return between("```swift", "```", in: String(markdown[range.upperBound...]))
  }

  /// The lines with their common indentation removed.
  public static func dedented(_ lines: [String]) -> [String] {
    let indents = lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
      .map { $0.prefix { $0 == " " }.count }
    let indent = indents.min() ?? 0
    return lines.map { $0.count >= indent ? String($0.dropFirst(indent)) : "" }
  }

  /// The example between `// MARKER:begin` and `// MARKER:end` in `testFile`, and the first
  /// Swift block after `heading` in the package's README.md, both dedented.
  public static func pair(testFile: String, marker: String, heading: String) throws -> (
    tested: [String], shown: [String]
  ) {
    let testURL = URL(fileURLWithPath: testFile)
    let root = testURL.deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let source = try String(contentsOf: testURL, encoding: .utf8)
    let tested = between("// \(marker):begin", "// \(marker):end", in: source) ?? []
    let shown = swiftBlock(after: heading, in: readme) ?? []
    return (dedented(tested), dedented(shown))
  }
}
