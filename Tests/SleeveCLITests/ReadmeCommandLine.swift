import Foundation
import SleeveTestSupport

/// A `sleeve` command line as README shows it, read the way a shell would for the simple
/// lines README uses: words split on spaces, `'single'` and `"double"` quotes grouping, a
/// `> file` redirection and a `# comment` taken off (the comment may say `exit N`: the exit
/// the line promises, else 0).
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

  /// The lines of the first `sh` block after `heading` in the package's README.md that run
  /// `sleeve` (none when there is no such block).
  static func block(after heading: String) throws -> [ReadmeCommandLine] {
    let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
    let text = try String(contentsOf: readme, encoding: .utf8)
    guard let range = text.range(of: heading),
      let block = ReadmeSnippet.between("```sh", "```", in: String(text[range.upperBound...]))
    else { return [] }
    return block.filter { $0.hasPrefix("sleeve ") }.map(ReadmeCommandLine.init)
  }
}
