import Foundation

/// Extracts the example code shown in README.md and the reference pages under `docs/guide/`,
/// and the code a test runs, for comparison.
public enum ReadmeSnippet {
  /// The package's root directory (two levels above this file's directory).
  public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The text of `document`, a path relative to the package's root (`README.md`,
  /// `docs/guide/lint.md`).
  ///
  /// - Throws: `Missing` when the document cannot be read, so a moved page fails its tests.
  public static func text(of document: String) throws -> String {
    do {
      return try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
    } catch {
      throw Missing(description: "\(document) cannot be read: \(error)")
    }
  }

  /// The text of `document` from the first occurrence of `heading` on.
  ///
  /// - Throws: `Missing` when the document cannot be read or has no such heading.
  public static func section(_ heading: String, of document: String) throws -> Substring {
    let text = try text(of: document)
    guard let range = text.range(of: heading) else {
      throw Missing(description: "no '\(heading)' in \(document)")
    }
    return text[range.upperBound...]
  }

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

  /// A snippet that is not where it should be.
  public struct Missing: Error, CustomStringConvertible {
    /// What is missing.
    public let description: String

    /// A snippet missing as `description` says.
    public init(description: String) { self.description = description }
  }

  /// The example between `// MARKER:begin` and `// MARKER:end` in `testFile`, and the first
  /// Swift block after `heading` in `document` (a path relative to the package's root, such as
  /// `README.md` or `docs/guide/core.md`), both dedented.
  ///
  /// - Throws: `Missing` when either is absent or empty, so that two vanished snippets can
  ///   never compare equal.
  public static func pair(testFile: String, marker: String, heading: String, in document: String)
    throws -> (tested: [String], shown: [String])
  {
    let source = try String(contentsOf: URL(fileURLWithPath: testFile), encoding: .utf8)
    let tested = between("// \(marker):begin", "// \(marker):end", in: source) ?? []
    let shown = swiftBlock(after: heading, in: try text(of: document)) ?? []
    guard tested.contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
      throw Missing(description: "no code between // \(marker):begin and :end in \(testFile)")
    }
    guard shown.contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
      throw Missing(description: "no ```swift block after '\(heading)' in \(document)")
    }
    return (dedented(tested), dedented(shown))
  }
}
