import Foundation
import SleeveQuery
import SleeveStore
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// `sleeve flaky`: verdicts on a seeded history, every format, hostile names, exit codes, help.
@Suite("Flaky command")
struct FlakyCommandTests {
  static let seed: UInt64 = 0xF1A4E

  @Test("flaky lists the flaky, broken and cleared handlers of the history and exits 0")
  func listsFindings() async throws {
    let history = try FlakyHistory(seed: Self.seed)
    let result = await CLIRunner.run(["flaky", "--db", history.fixture.path])
    #expect(result.exit == 0, "seed \(Self.seed): \(result.error)")
    let rows = result.out.split(separator: "\n").filter { $0.hasPrefix("CheckoutView") }
    #expect(rows.count == 3, "seed \(Self.seed): \(result.out)")
    #expect(rows[0].contains("submit") && rows[0].contains("flaky"), "\(result.out)")
    #expect(rows[1].contains("charge") && rows[1].contains("broken"), "\(result.out)")
    #expect(rows[2].contains("refresh") && rows[2].contains("cleared"), "\(result.out)")
    #expect(result.out.hasPrefix("15 sessions of the last 6 commits judged: 1 flaky, 1 broken"))
    #expect(result.out.contains("2 sessions record no commit (4, 14)"))
    let all = await CLIRunner.run(["flaky", "--db", history.fixture.path, "--all"])
    #expect(all.out.contains("validate") && all.out.contains("PaymentView"), "\(all.out)")
  }

  @Test("flaky's JSON is stable (golden), names the method, and has the evidence of each verdict")
  func jsonGolden() async throws {
    let history = try FlakyHistory(seed: Self.seed)
    let result = await CLIRunner.run([
      "flaky", "--db", history.fixture.path, "--format", "json", "--window", "5",
    ])
    CLIRunner.updateGoldenIfAsked("json-flaky.json", with: result.out)
    #expect(result.exit == 0)
    #expect(result.out == CLIRunner.golden("json-flaky.json"), "seed \(Self.seed)")
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    let handlers = try #require(object["handlers"] as? [[String: Any]])
    // refresh flaked on c1 only, outside the last 5 commits.
    #expect(handlers.map { $0["verdict"] as? String } == ["flaky", "broken"])
  }

  @Test("the filters apply: a commit with one session judges nothing as flaky")
  func filtersApply() async throws {
    let history = try FlakyHistory(seed: Self.seed)
    let result = await CLIRunner.run([
      "flaky", "--db", history.fixture.path, "--commit", String(FlakyHistory.commits[5].prefix(8)),
      "--format", "json",
    ])
    #expect(result.exit == 0, "\(result.error)")
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    #expect(object["sessions"] as? [Int] == [17])
    let handlers = try #require(object["handlers"] as? [[String: Any]])
    #expect(handlers.map { $0["handler"] as? String } == ["charge"])
  }

  @Test("no session matching exits 66 with one line naming the filters")
  func noSessionIs66() async throws {
    let history = try FlakyHistory(seed: Self.seed)
    let result = await CLIRunner.run([
      "flaky", "--db", history.fixture.path, "--commit", "deadbeef",
    ])
    #expect(result.exit == 66)
    #expect(result.out.isEmpty)
    #expect(result.error.hasPrefix("Error: no session matches --session all --commit 'deadbeef'"))
    #expect(result.error.split(separator: "\n").count == 1)
    let missing = await CLIRunner.run(["flaky", "--db", "/nonexistent/sleeve.sqlite"])
    #expect(missing.exit == 66)
  }

  /// Two sessions of one hostile commit and test, disagreeing about a hostile handler whose
  /// failure has a hostile type and message.
  static func hostileHistory() throws -> FixtureDatabase {
    let fixture = try FixtureDatabase()
    for id: Int64 in [1, 2] {
      try fixture.session(id, name: HostileNames.session, startedSeconds: 1_700_000_000 + id)
      try fixture.context(
        session: id, commit: "c\u{1B}[2J\nforged", testID: "t\u{202E}\r\nforged")
      try fixture.handler(
        session: id, number: 1, name: HostileNames.handler, control: HostileNames.control,
        site: "S\u{1B}]0;x\u{07}.swift:1")
      try fixture.samples(
        session: id, handler: 1,
        id == 1
          ? [
            .init(
              5, failed: true, errorType: "E\u{1B}[31m\r\nforged",
              errorMessage: "=cmd|' /C calc'!A0 <b>|x|</b>"),
            .init(6),
          ]
          : [.init(5), .init(6)])
    }
    return fixture
  }

  @Test(
    "hostile recorded names come out escaped in every format, one row per handler",
    arguments: ["table", "markdown", "csv", "json"])
  func hostileNames(format: String) async throws {
    let fixture = try Self.hostileHistory()
    let result = await CLIRunner.run(["flaky", "--db", fixture.path, "--format", format])
    #expect(result.exit == 0, "\(result.error)")
    switch format {
    case "json":
      let object = try #require(
        JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
      let handlers = try #require(object["handlers"] as? [[String: Any]])
      #expect(handlers.first?["handler"] as? String == HostileNames.handler)
      #expect(handlers.first?["control"] as? String == HostileNames.control)
      #expect(handlers.first?["verdict"] as? String == "flaky")
    case "csv":
      let records = try EscaperTests.csvParsed(result.out)
      #expect(records.count == 2, "\(result.out.debugDescription)")
      #expect(records.allSatisfy { $0.count == records[0].count })
      #expect(records[1][1] == HostileNames.handler)
      #expect(records[1].contains { $0.contains("E\u{1B}[31m\r\nforged") }, "\(records)")
    default:
      #expect(
        !result.out.unicodeScalars.contains { HostileNames.forbidden.contains($0) },
        "\(result.out.debugDescription)")
      let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false)
      #expect(!lines.contains { $0.hasPrefix("forged") }, "a name's line break forged a row")
      if format == "markdown" {
        #expect(lines.filter { $0.hasPrefix("|") }.count == 3, "\(result.out)")
        #expect(!result.out.contains("<b>"), "\(result.out)")
      }
    }
  }

  static let usageCases: [(arguments: [String], message: String)] = [
    (
      ["flaky", "--window", "0"],
      "The value '0' is invalid for '--window <n>': expected a whole number from 1 to 1000000"
    ),
    (
      ["flaky", "--broken-share", "150%"],
      "The value '150%' is invalid for '--broken-share <rate>': a rate must be between 0 and 1 (0% and 100%)"
    ),
    (
      ["flaky", "--broken-commits", "many"],
      "The value 'many' is invalid for '--broken-commits <n>': expected a whole number from 1 to 1000000"
    ),
    (
      ["flaky", "--clear-after", "-1"],
      "The value '-1' is invalid for '--clear-after <n>': expected a whole number from 1 to 1000000"
    ),
    (["flaky", "--all=yes"], "The flag '--all' does not take a value"),
    (["flaky", "stray"], "Unexpected argument 'stray'"),
    (
      ["flaky", "--last", "3", "--session", "all"],
      "--last and --session choose sessions two ways; give one of them"
    ),
  ]

  @Test(
    "flaky's usage errors: one Error line, the usage line, a pointer to help, exit 64",
    arguments: usageCases)
  func usageErrors(arguments: [String], message: String) async {
    await CLIRunner.expectUsageError(arguments, message, command: "flaky")
  }

  @Test(
    "the flaky page's flaky and quarantine commands run on demo --history's data and exit as stated, in order"
  )
  func readmeCommandsRun() async throws {
    let lines = try ReadmeCommandLine.block(
      after: "## Flaky handlers and quarantine", in: "docs/guide/flaky.md")
    #expect(lines.count == 6)
    // The demo's history, which a reader has: the quarantined handler must be one it recorded.
    let history = await DemoHistoryTests.record()
    for line in lines {
      let result = await CLIRunner.run(line.arguments + ["--db", history.path])
      #expect(result.exit == line.exit, "\(line.arguments): \(result.error)")
    }
    #expect(try QueryDatabase(path: history.path).quarantine().isEmpty)
  }

}
