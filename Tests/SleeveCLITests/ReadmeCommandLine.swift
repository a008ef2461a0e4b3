import Foundation
import SleeveTestSupport

/// A `sleeve` command line as README or a reference page shows it, read the way a shell would
/// for the simple lines they use: words split on spaces, `'single'` and `"double"` quotes
/// grouping, a `> file` redirection and a `# comment` taken off (the comment may say `exit N`:
/// the exit the line promises, else 0).
struct ReadmeCommandLine {
  /// The arguments, without `sleeve`.
  let arguments: [String]
  /// The file standard output is redirected to, if any.
  let redirect: String?
  /// The exit code the line's comment promises.
  let exit: Int32

  init(_ line: String) {
    var words: [String] = []
    var word = ""
    var quote: Unicode.Scalar?
    var started = false
    var redirecting = false
    var comment = ""
    var redirect: String?
    func finish() {
      if started {
        if redirecting { redirect = word } else { words.append(word) }
      }
      word = ""
      started = false
    }
    var scalars = line.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      if let open = quote {
        if scalar == open { quote = nil } else { word.unicodeScalars.append(scalar) }
      } else if scalar == "'" || scalar == "\"" {
        quote = scalar
        started = true
      } else if scalar == " " {
        finish()
      } else if scalar == "#" && !started {
        while let rest = scalars.next() { comment.unicodeScalars.append(rest) }
      } else if scalar == ">" && !started {
        redirecting = true
      } else {
        word.unicodeScalars.append(scalar)
        started = true
      }
    }
    finish()
    self.arguments = Array(words.drop { $0 == "sleeve" })
    self.redirect = redirect
    self.exit =
      comment.range(of: "exit ").flatMap { range in
        Int32(comment[range.upperBound...].prefix { $0.isNumber })
      } ?? 0
  }

  /// The lines of the first `sh` block after `heading` in `document` (a path relative to the
  /// package's root: `README.md`, `docs/guide/gate.md`) that run `sleeve`.
  ///
  /// - Throws: `ReadmeSnippet.Missing` when the document, the heading or a `sh` block after it
  ///   is missing, or the block runs no `sleeve`: a moved snippet fails its test.
  static func block(after heading: String, in document: String) throws -> [ReadmeCommandLine] {
    let section = try ReadmeSnippet.section(heading, of: document)
    guard let block = ReadmeSnippet.between("```sh", "```", in: String(section)) else {
      throw ReadmeSnippet.Missing(description: "no ```sh block after '\(heading)' in \(document)")
    }
    let lines = block.filter { $0.hasPrefix("sleeve ") }.map(ReadmeCommandLine.init)
    guard !lines.isEmpty else {
      throw ReadmeSnippet.Missing(
        description: "the ```sh block after '\(heading)' in \(document) runs no sleeve")
    }
    return lines
  }
}
