import Foundation
import SleeveTestSupport
import Testing

/// README's "Gate a pull request against main": its commands run as shown, with the exits and
/// findings its comments promise.
@Suite("README: gate a pull request against main", .serialized)
struct PullRequestReadmeTests {
  static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")

  /// The `sleeve` lines of the section's first `sh` block, each split into words (single
  /// quotes group), its `> file` and `# comment` taken off, with the exit its comment states
  /// (`exit N`, else 0).
  static func commands() throws -> [(words: [String], redirect: String?, exit: Int32)] {
    let text = try String(contentsOf: readme, encoding: .utf8)
    let heading = try #require(text.range(of: "## Gate a pull request against main\n"))
    let block = try #require(
      ReadmeSnippet.between("```sh", "```", in: String(text[heading.upperBound...])))
    return block.compactMap { line in
      guard line.hasPrefix("sleeve ") else { return nil }
      let code = line.components(separatedBy: "  #").first ?? line
      let comment = line.dropFirst(code.count)
      let exit =
        comment.range(of: "exit ").flatMap { range in
          Int32(comment[range.upperBound...].prefix { $0.isNumber })
        } ?? 0
      var words: [String] = []
      var redirect: String?
      var current = ""
      var quoted = false
      var redirecting = false
      func finish() {
        guard !current.isEmpty else { return }
        if redirecting { redirect = current } else { words.append(current) }
        current = ""
      }
      for character in code {
        if character == "'" {
          quoted.toggle()
        } else if character == " " && !quoted {
          finish()
        } else if character == ">" && !quoted {
          redirecting = true
        } else {
          current.append(character)
        }
      }
      finish()
      return (Array(words.dropFirst()), redirect, exit)
    }
  }

  @Test("every command of the section runs with the exit its comment states")
  func runsAsShown() async throws {
    let directory = TemporaryDirectory()
    let environment = ["SLEEVE_DB": directory.path("history.sqlite")]
    let commands = try Self.commands()
    #expect(commands.count == 7)
    #expect(commands.first?.words == ["demo", "--history"])
    var outputs: [String: String] = [:]
    for command in commands {
      let result = await CLIRunner.run(command.words, environment: environment)
      #expect(result.exit == command.exit, "\(command.words): \(result.error)")
      if let file = command.redirect { outputs[file] = result.out }
      outputs[command.words.prefix(1).joined() + (command.redirect ?? "")] = result.out
    }
    #expect(outputs["comment.md"]?.contains("<details><summary>") == true)
    #expect(outputs["flaky"]?.contains("fetch-shipping-quote  flaky") == true)
    #expect(outputs["sleeve.xml"]?.hasPrefix("<?xml") == true)
  }
}
