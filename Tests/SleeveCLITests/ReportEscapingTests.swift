import Foundation
import SleeveQuery
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// The Markdown and HTML reports: recorded text never becomes markup; the environment line
/// reads the metadata JSON with the one parser.
@Suite("Report escaping")
struct ReportEscapingTests {
  @Test("Markdown report: raw HTML, links, pipes and line breaks in names stay text")
  func markdownReportEscapesNames() async throws {
    let fixture = try HostileNames.database()
    let result = await CLIRunner.run(["report", "--db", fixture.path, "--session", "all"])
    #expect(result.exit == 0, "\(result.error)")
    let out = result.out
    #expect(!Self.hasUnescaped("<", in: out), "raw HTML passed into the report")
    #expect(out.contains(#"\<img src=x onerror=alert(1)\>"#))
    #expect(!Self.hasUnescaped("](", in: out), "a link survived")
    #expect(out.contains(#"\[click\](https://evil.example)"#))
    #expect(!out.unicodeScalars.contains { HostileNames.forbidden.contains($0) })
    let lines = out.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(!lines.contains { $0.hasPrefix("forged") })
    // One row per session in the sessions table: the header, the rule, one session.
    let sessionsTable = lines.drop { !$0.hasPrefix("| id |") }.prefix { $0.hasPrefix("|") }
    #expect(sessionsTable.count == 3, "\(sessionsTable)")
  }

  @Test("Markdown from the query commands escapes the header line and every cell")
  func markdownCommandsEscape() async throws {
    let fixture = try HostileNames.database()
    for command in [["errors"], ["latency"], ["flags"], ["check"]] {
      let result = await CLIRunner.run(
        command + ["--db", fixture.path, "--format", "markdown"])
      #expect(!Self.hasUnescaped("<", in: result.out), "\(command)")
      #expect(!result.out.unicodeScalars.contains { HostileNames.forbidden.contains($0) })
      #expect(result.out.contains(#"s\e\]0;PWNED\a\e\[2J"#), "\(command): \(result.out)")
    }
  }

  @Test("HTML report: a quote fused with a combining mark cannot end an attribute")
  func htmlReportEscapesOnScalars() async throws {
    let fixture = try FixtureDatabase()
    let key = "k\"\u{0338} onload=\"alert(1)\"\u{0338}<script>x</script>"
    try fixture.session(1, name: "run")
    try fixture.handler(session: 1, number: 1, name: "h", control: "c", flag: key)
    try fixture.outcomes(session: 1, handler: 1, durations: [5, 6], variant: 1)
    try fixture.flag(
      session: 1, key: key, owner: "o", maxErrorRate: 0.5, maxP99: nil, minSamples: 1,
      states: [("enabled", nil)])
    let result = await CLIRunner.run(["report", "--db", fixture.path, "--format", "html"])
    #expect(result.exit == 0, "\(result.error)")
    let html = Array(result.out.unicodeScalars)
    let fusedQuote: [Unicode.Scalar] = ["\"", "\u{0338}"]
    #expect(!html.indices.contains { html[$0...].starts(with: fusedQuote) })
    #expect(!result.out.contains("<script"))
    #expect(Self.contains("k&quot;\u{0338} onload=&quot;alert(1)&quot;", in: result.out))
  }

  static let metadataJSON =
    #"{"environment":{"BRANCH":"fix/}{\"x\"","CI":"true","NOTE":"a, b=c"}}"#

  @Test("the environment line holds values with braces, quotes and commas exactly")
  func environmentLineParsesTheJSON() async throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.connection.execute(
      "UPDATE sessions SET metadata_json = '\(Self.metadataJSON)', tags_json = '[\"a}\",\"b\"]' WHERE id = 1"
    )
    let markdown = await CLIRunner.run(["report", "--db", fixture.path, "--session", "all"])
    #expect(
      markdown.out.contains(#"Session 1 environment: BRANCH=fix/}{"x", CI=true, NOTE=a, b=c"#),
      "\(markdown.out)")
    let json = await CLIRunner.run([
      "report", "--db", fixture.path, "--session", "all", "--format", "json",
    ])
    let parsed = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
    let sessions = parsed?["sessions"] as? [[String: Any]]
    #expect(
      sessions?.first?["environment"] as? String == #"BRANCH=fix/}{"x", CI=true, NOTE=a, b=c"#)
    let otlp = await CLIRunner.run([
      "export", "--db", fixture.path, "--session", "1", "--format", "otlp-json",
    ])
    #expect(
      otlp.out.contains(#"{"key":"sleeve.env.BRANCH","value":{"stringValue":"fix/}{\"x\""}}"#))
    #expect(otlp.out.contains(#"{"values":[{"stringValue":"a}"},{"stringValue":"b"}]}"#))
  }

  @Test(
    "recorded metadata of any shape reads as an answer, never a trap",
    arguments: [
      ("not json", "[1", [String: String](), [String]()),
      ("{\"environment\":[1,2]}", "{\"a\":1}", [:], []),
      ("{\"environment\":{\"A\":\"1\",\"B\":2,\"C\":null}}", "[\"t\",3,null]", ["A": "1"], ["t"]),
      ("", "", [:], []),
      ("{\"environment\":{\"Q\":\"\\\"}\\n\"}}", "[]", ["Q": "\"}\n"], []),
    ])
  func metadataOfAnyShape(
    metadata: String, tags: String, environment: [String: String], expectedTags: [String]
  ) {
    let recorded = RecordedMetadata(metadataJSON: metadata, tagsJSON: tags)
    #expect(recorded.environment == environment)
    #expect(recorded.tags == expectedTags)
  }

  /// Whether `text` holds `sequence` (compared scalar by scalar) with an even number of
  /// backslashes before it: where a Markdown parser would read it as markup.
  static func hasUnescaped(_ sequence: String, in text: String) -> Bool {
    let scalars = Array(text.unicodeScalars)
    let needle = Array(sequence.unicodeScalars)
    return scalars.indices.contains { start in
      guard scalars[start...].starts(with: needle) else { return false }
      let backslashes = scalars[..<start].reversed().prefix { $0 == "\\" }.count
      return backslashes % 2 == 0
    }
  }

  /// Whether `text` holds `sequence`, compared scalar by scalar (a `Character` comparison
  /// would miss a match that ends before a combining mark).
  static func contains(_ sequence: String, in text: String) -> Bool {
    let scalars = Array(text.unicodeScalars)
    let needle = Array(sequence.unicodeScalars)
    return scalars.indices.contains { scalars[$0...].starts(with: needle) }
  }
}
