import Foundation
import SleeveQuery
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// `sleeve diff`: selections, usage errors, exit codes, formats.
@Suite("diff command")
struct DiffCommandTests {
  static func history() throws -> SyntheticHistory {
    try SyntheticHistory(
      seed: 21, baselineRuns: 6,
      handlers: [
        .init("steady"), .init("slower", change: .slower(1.8)),
        .init("decoding", change: .newFailureType(count: 1)),
      ])
  }

  static let usageCases: [(arguments: [String], message: String)] = [
    (["diff"], "Missing --baseline, e.g. --baseline 'branch=main,last=20'"),
    (
      ["diff", "--baseline", "branch"],
      "The value 'branch' is invalid for '--baseline <selection>': expected terms like branch=main,last=20, separated by commas; 'branch' has no '='"
    ),
    (
      ["diff", "--baseline", "colour=blue"],
      "The value 'colour=blue' is invalid for '--baseline <selection>': colour=blue: unknown term 'colour'; expected session, name, since, commit, branch, test, tag, last"
    ),
    (
      ["diff", "--baseline", "branch=main,last=0"],
      "The value 'branch=main,last=0' is invalid for '--baseline <selection>': last=0: expected a whole number from 1 to 1000000"
    ),
    (
      ["diff", "--baseline", "branch=main,branch=dev"],
      "The value 'branch=main,branch=dev' is invalid for '--baseline <selection>': 'branch' is given twice"
    ),
    (
      ["diff", "--baseline", "session=3,last=2"],
      "The value 'session=3,last=2' is invalid for '--baseline <selection>': session and last choose sessions two ways; give one of them"
    ),
    (
      ["diff", "--baseline", "branch=main", "--session", "3"],
      "Unknown option '--session'"
    ),
    (
      ["errors", "--session", "3", "--last", "2"],
      "--last and --session choose sessions two ways; give one of them"
    ),
  ]

  @Test(
    "a combining mark after ',' or '=' in a selection is part of a term, never hides the separator")
  func selectionSplitsOnScalars() throws {
    let joined = try BaselineSelection.parse("branch=\u{301}main", on: QueryFilter())
    #expect(Array((joined.branch ?? "").unicodeScalars) == Array("\u{301}main".unicodeScalars))
    #expect(throws: ValueError.self) {
      // The second term is `\u{301}last=2`, an unknown term, not more of the branch's value.
      let filter = try BaselineSelection.parse("branch=main,\u{301}last=2", on: QueryFilter())
      Issue.record("parsed as branch '\(filter.branch ?? "")'")
    }
  }

  @Test("usage errors name the option and the term, exit 64", arguments: usageCases)
  func usageErrors(arguments: [String], message: String) async throws {
    let history = try Self.history()
    let result = await CLIRunner.run(arguments + ["--db", history.fixture.path])
    #expect(result.exit == 64)
    #expect(result.error.hasPrefix("Error: \(message)\n"), "\(result.error)")
  }

  @Test("overlapping sides are 64 unless --allow-overlap; --by session is 64")
  func overlap() async throws {
    let history = try Self.history()
    let db = history.fixture.path
    let overlapping = await CLIRunner.run([
      "diff", "--db", db, "--baseline", "last=3", "--candidate", "session=last",
    ])
    #expect(overlapping.exit == 64)
    #expect(overlapping.error.contains("share session 7"))
    let allowed = await CLIRunner.run([
      "diff", "--db", db, "--baseline", "last=3", "--allow-overlap",
    ])
    #expect(allowed.exit == 0, "\(allowed.error)")
    let bySession = await CLIRunner.run([
      "diff", "--db", db, "--baseline", "branch=main", "--by", "session",
    ])
    #expect(bySession.exit == 64)
  }

  @Test("an empty side is 66 naming the side and its filters")
  func emptySide() async throws {
    let history = try Self.history()
    let result = await CLIRunner.run([
      "diff", "--db", history.fixture.path, "--baseline", "branch=release",
    ])
    #expect(result.exit == 66)
    #expect(
      result.error.hasPrefix(
        "Error: no session matches the baseline (--session all --branch 'release')"))
  }

  @Test("the table says every verdict with its reason; JSON carries the tests and the method")
  func answers() async throws {
    let history = try Self.history()
    let db = history.fixture.path
    let table = await CLIRunner.run([
      "diff", "--db", db, "--baseline", "branch=main", "--wide",
    ])
    #expect(table.exit == 0, "\(table.error)")
    #expect(table.out.hasPrefix("2 regressed, 1 unchanged of 3 handlers. Baseline: 6 sessions"))
    #expect(table.out.contains("new failure type: DecodingError: missing key 'total' at offset #"))
    let json = await CLIRunner.run([
      "diff", "--db", db, "--baseline", "branch=main", "--format", "json",
    ])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
    let rows = try #require(object["rows"] as? [[String: Any]])
    let slower = try #require(rows.first { $0["handler"] as? String == "slower" })
    #expect(slower["verdict"] as? String == "regressed")
    #expect(slower["control"] as? String == "CheckoutView")
    let test = try #require(slower["latencyTest"] as? [String: Any])
    #expect((test["holm"] as? Double ?? 1) < 0.05)
    #expect((test["method"] as? String)?.hasPrefix("Mann-Whitney U") == true)
  }

  @Test("markdown is a PR comment: a summary line, the rows that matter, unchanged ones folded")
  func markdownComment() async throws {
    let history = try Self.history()
    let result = await CLIRunner.run([
      "diff", "--db", history.fixture.path, "--baseline", "branch=main", "--format", "markdown",
    ])
    let out = result.out
    #expect(out.hasPrefix("### sleeve diff\n\n**2 regressed, 1 unchanged of 3 handlers**."))
    let folded = try #require(out.range(of: "<details><summary>1 unchanged</summary>"))
    #expect(out[..<folded.lowerBound].contains("CheckoutView/slower"))
    #expect(!out[..<folded.lowerBound].contains("CheckoutView/steady"))
    #expect(out[folded.upperBound...].contains("CheckoutView/steady"))
  }

  @Test("hostile recorded names stay inert in every format")
  func hostileNames() async throws {
    let fixture = try FixtureDatabase()
    for id in Int64(1)...2 {
      try fixture.session(id, name: HostileNames.session, startedSeconds: 1_700_000_000 + id)
      try fixture.context(session: id, branch: id == 1 ? "main" : "pr")
      try fixture.handler(
        session: id, number: 1, name: HostileNames.handler, control: HostileNames.control)
      try fixture.samples(
        session: id, handler: 1,
        [.init(5, failed: id == 2, errorType: HostileNames.flag, errorMessage: HostileNames.reason)]
          + (0..<40).map { .init(Int64($0)) })
    }
    for format in ["table", "markdown"] {
      let result = await CLIRunner.run([
        "diff", "--db", fixture.path, "--baseline", "branch=main", "--format", format,
      ])
      #expect(result.exit == 0, "\(format): \(result.error)")
      #expect(
        !result.out.unicodeScalars.contains { HostileNames.forbidden.contains($0) }, "\(format)")
      if format == "markdown" {
        #expect(!result.out.replacingOccurrences(of: "\\<", with: "").contains("<img"))
      }
      #expect(!result.out.contains("\nforged"), "\(format)")
    }
    // CSV keeps the data as recorded, each hostile field quoted so it stays one field.
    let csv = await CLIRunner.run([
      "diff", "--db", fixture.path, "--baseline", "branch=main", "--format", "csv",
    ])
    #expect(csv.out.contains("\"\(HostileNames.control)/\(HostileNames.handler)\""))
  }

  @Test("sides that ran no handler say so in one sentence in every format, with no '..'")
  func nothingToCompare() async throws {
    let fixture = try FixtureDatabase()
    for id in Int64(1)...2 {
      try fixture.session(id, name: "run", startedSeconds: 1_700_000_000 + id)
      try fixture.context(session: id, branch: id == 1 ? "main" : "pr")
    }
    for format in ["table", "markdown", "github", "junit", "json"] {
      let result = await CLIRunner.run([
        "diff", "--db", fixture.path, "--baseline", "branch=main", "--format", format,
      ])
      #expect(result.exit == 0, "\(format): \(result.error)")
      #expect(
        result.out.contains("Nothing to compare: no handlers ran on either side"), "\(format)")
      #expect(
        !result.out.contains("..") && !result.out.contains(".**."), "\(format): \(result.out)")
    }
  }
}
