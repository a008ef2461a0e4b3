import Foundation
import SleeveQuery
import SleeveStore
import SleeveTestSupport
import Synchronization
import Testing

@testable import SleeveCLI

/// `sleeve lint` as a command: usage errors, the options the analysis gets, exit codes with
/// `--fail-on`, `--out`, and the suppressions' round trip. The report comes from
/// `LintEngine.override` (a report made by hand), so these tests hold the command apart from
/// the analysis.
@Suite("Lint command")
struct LintCommandTests {
  static func fixture() throws -> FixtureDatabase {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "run")
    return fixture
  }

  /// The options the analysis was asked with, kept across the override's call.
  final class Asked: Sendable {
    let options = Mutex<LintOptions?>(nil)
  }

  /// Runs `sleeve lint` with `report` in place of the analysis.
  static func run(
    _ arguments: [String], report: LintReport, asked: Asked = Asked(),
    environment: [String: String] = [:]
  ) async -> CLIRunner.Result {
    await LintEngine.$override.withValue({ _, options in
      asked.options.withLock { $0 = options }
      return report
    }) {
      await CLIRunner.run(["lint"] + arguments, environment: environment)
    }
  }

  static let ids = LintCheck.allCases.map(\.id).joined(separator: ", ")

  @Test(
    "a bad command line is a usage error (64) naming the problem",
    arguments: [
      (
        ["suppress", "no-such-check", "A.swift:1", "--reason", "r"],
        "Unknown check 'no-such-check'; expected one of \(ids)"
      ),
      (
        ["unsuppress", "Handler-Accumulation", "A.swift:1"],
        "Unknown check 'Handler-Accumulation'; expected one of \(ids); did you mean "
          + "'handler-accumulation'?"
      ),
      (
        ["--disable", "mixed-wiring", "--disable", "bogus"],
        "Unknown check 'bogus' for '--disable'; expected one of \(ids)"
      ),
      (
        ["suppress", "mixed-wiring", "A.swift:1"],
        "Missing value for '--reason <text>': say why"
      ),
      (
        ["suppress", "mixed-wiring", "A.swift:1", "--reason", "  "],
        "Missing value for '--reason <text>': say why"
      ),
      (
        ["suppress", "mixed-wiring", " ", "--reason", "r"],
        "The site is empty; give a registration site (App/File.swift:42) or a control's name"
      ),
      (["suppress", "mixed-wiring"], "Missing expected argument '<site>'"),
      (["unsuppress"], "Missing expected argument '<check>'"),
      (["suppressions", "extra"], "Unexpected argument 'extra'"),
      (
        ["fix"],
        "Unknown action 'fix'; expected suppress, unsuppress, suppressions (or none, to run the checks)"
      ),
      (["--reason", "r"], "The option '--reason' applies to 'lint suppress'"),
      (
        ["unsuppress", "mixed-wiring", "A.swift:1", "--reason", "r"],
        "The option '--reason' does not apply to 'lint unsuppress'"
      ),
      (
        ["suppressions", "--fail-on", "note"],
        "The option '--fail-on' does not apply to 'lint suppressions'"
      ),
      (
        ["--fail-on", "fatal"],
        "The value 'fatal' is invalid for '--fail-on <severity>': expected one of error, warning, note"
      ),
      (
        ["suppressions", "--format", "junit"],
        "The value 'junit' is invalid for '--format <format>': expected one of table, json, csv, markdown"
      ),
    ] as [([String], String)])
  func usageErrors(arguments: [String], message: String) async throws {
    let fixture = try Self.fixture()
    await CLIRunner.expectUsageError(
      ["lint"] + arguments + ["--db", fixture.path], message, command: "lint")
  }

  static let durationReason =
    "expected milliseconds (16.7) or a duration with a unit (16.7ms, 1s)"

  @Test(
    "a bad number is a usage error: negative, zero, too large or not a number",
    arguments: [
      ("frame-budget", "-1", durationReason),
      ("frame-budget", "0", "the duration must be more than 0"),
      ("frame-budget", "0ms", "the duration must be more than 0"),
      ("frame-budget", "1e3", durationReason), ("frame-budget", "fast", durationReason),
      ("frame-budget", "nan", durationReason),
      (
        "frame-budget", "99999999999999999999",
        "a duration is at most 9223372036854775807ns (about 292 years)"
      ),
      ("rage-window", "-5ms", durationReason),
      (
        "rage-window", "9999999999m",
        "a duration is at most 9223372036854775807ns (about 292 years)"
      ),
      ("rage-count", "1", "expected a whole number from 2 to 1000000"),
      ("rage-count", "0", "expected a whole number from 2 to 1000000"),
      ("rage-count", "-3", "expected a whole number from 2 to 1000000"),
      ("rage-count", "3.5", "expected a whole number from 2 to 1000000"),
      ("rage-count", "99999999999999999999", "expected a whole number from 2 to 1000000"),
    ] as [(String, String, String)])
  func badNumbers(option: String, value: String, reason: String) async throws {
    let fixture = try Self.fixture()
    let spec = try #require(LintCommand.spec.option(named: option))
    await CLIRunner.expectUsageError(
      ["lint", "--\(option)=\(value)", "--db", fixture.path],
      "The value '\(value)' is invalid for '\(spec.synopsis)': \(reason)", command: "lint")
  }

  @Test(
    "the options reach the analysis: disabled checks, the frame budget, the rage count and window")
  func optionsReachTheAnalysis() async throws {
    let fixture = try Self.fixture()
    let asked = Asked()
    let result = await Self.run(
      [
        "--db", fixture.path, "--disable", "mixed-wiring", "--disable", "dead-interaction",
        "--frame-budget", "33.4", "--rage-count", "5", "--rage-window", "1.5s",
      ], report: LintReportFixtures.clean, asked: asked)
    #expect(result.exit == 0, "\(result.error)")
    let options = try #require(asked.options.withLock { $0 })
    #expect(options.disabled == [.mixedWiring, .deadInteraction])
    #expect(options.frameBudgetNanoseconds == 33_400_000)
    #expect(options.rageCount == 5)
    #expect(options.rageWindowNanoseconds == 1_500_000_000)
    let defaults = Asked()
    _ = await Self.run(["--db", fixture.path], report: LintReportFixtures.clean, asked: defaults)
    #expect(defaults.options.withLock { $0 } == LintOptions())
  }

  @Test(
    "exit 1 when an active finding is at --fail-on severity or worse, else 0; a suppressed one never fails",
    arguments: [
      (LintSeverity.error, nil, false, 1), (.error, "warning", false, 1),
      (.error, "note", false, 1),
      (.warning, nil, false, 0), (.warning, "error", false, 0), (.warning, "warning", false, 1),
      (.warning, "note", false, 1), (.note, nil, false, 0), (.note, "warning", false, 0),
      (.note, "note", false, 1), (.error, nil, true, 0), (.error, "note", true, 0),
    ] as [(LintSeverity, String?, Bool, Int32)])
  func exitCodes(severity: LintSeverity, failOn: String?, suppressed: Bool, exit: Int32)
    async throws
  {
    let fixture = try Self.fixture()
    for format in ["table", "json", "junit", "github"] {
      let result = await Self.run(
        ["--db", fixture.path, "--format", format] + (failOn.map { ["--fail-on", $0] } ?? []),
        report: LintReportFixtures.single(severity, suppressed: suppressed))
      #expect(result.exit == exit, "\(format): \(result.error)")
    }
  }

  @Test("--out writes the output to a new 0600 file and nothing to standard output")
  func outFile() async throws {
    let fixture = try Self.fixture()
    let directory = TemporaryDirectory()
    let path = directory.path("lint.json")
    let result = await Self.run(
      ["--db", fixture.path, "--format", "json", "--out", path],
      report: LintReportFixtures.representative)
    #expect(result.exit == 1, "\(result.error)")
    #expect(result.out.isEmpty)
    #expect(result.error == "Wrote the json lint report to \(path).\n")
    let written = try String(contentsOfFile: path, encoding: .utf8)
    #expect(
      written
        == LintReportText.render(
          LintReportFixtures.representative, failOn: .error, format: .json, display: .plain))
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let onDatabase = await Self.run(
      ["--db", fixture.path, "--out", fixture.path], report: LintReportFixtures.clean)
    #expect(onDatabase.exit == 64)
  }

  static func suppressions(_ path: String) async throws -> [[String: Any]] {
    let result = await CLIRunner.run(["lint", "suppressions", "--db", path, "--format", "json"])
    #expect(result.exit == 0, "\(result.error)")
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    return try #require(object["suppressions"] as? [[String: Any]])
  }

  @Test(
    "suppress records (check, site) with its reason and $USER; again updates it; unsuppress lifts it, and lifting it again is 66"
  )
  func suppressRoundTrip() async throws {
    let fixture = try Self.fixture()
    let first = await CLIRunner.run(
      [
        "lint", "suppress", "silent-replacement", "Checkout.swift:50", "--reason", "by design",
        "--db", fixture.path,
      ], environment: ["USER": "ci-bot"])
    #expect(first.exit == 0, "\(first.error)")
    #expect(
      first.out
        == "Suppressed silent-replacement at 'Checkout.swift:50' (by design), by ci-bot.\n")
    let second = await CLIRunner.run([
      "lint", "suppress", "silent-replacement", "Checkout.swift:50", "--reason", "#31",
      "--actor", "oncall", "--db", fixture.path,
    ])
    #expect(second.out.hasPrefix("Updated the suppression of silent-replacement"))
    _ = await CLIRunner.run([
      "lint", "suppress", "dead-interaction", "PayButton", "--reason", "decorative", "--db",
      fixture.path,
    ])
    let entries = try await Self.suppressions(fixture.path)
    #expect(entries.map { $0["check"] as? String } == ["dead-interaction", "silent-replacement"])
    #expect(entries[1]["reason"] as? String == "#31")
    #expect(entries[1]["actor"] as? String == "oncall")
    #expect(entries[0]["actor"] is NSNull)
    let table = await CLIRunner.run(["lint", "suppressions", "--db", fixture.path])
    #expect(table.out.hasPrefix("2 suppressions: lint lists the findings they cover apart"))
    let lifted = await CLIRunner.run([
      "lint", "unsuppress", "silent-replacement", "Checkout.swift:50", "--db", fixture.path,
    ])
    #expect(lifted.exit == 0, "\(lifted.error)")
    #expect(lifted.out == "silent-replacement is no longer suppressed at 'Checkout.swift:50'.\n")
    let again = await CLIRunner.run([
      "lint", "unsuppress", "silent-replacement", "Checkout.swift:50", "--db", fixture.path,
    ])
    #expect(again.exit == 66)
    #expect(
      again.error
        == "Error: silent-replacement is not suppressed at 'Checkout.swift:50' (list them with "
        + "'sleeve lint suppressions')\n")
    #expect(try await Self.suppressions(fixture.path).count == 1)
  }

  @Test(
    "a site no session recorded is suppressed all the same, with a note; a recorded site or control name gets none"
  )
  func unknownSiteNote() async throws {
    let fixture = try Self.fixture()
    try fixture.handler(
      session: 1, number: 1, name: "submit", control: "CheckoutView", site: "App/Checkout.swift:10")
    for (site, noted) in [
      ("App/Checkout.swift:10", false), ("CheckoutView", false), ("Checkout.swift:10", true),
    ] {
      let result = await CLIRunner.run([
        "lint", "suppress", "mixed-wiring", site, "--reason", "r", "--db", fixture.path,
      ])
      #expect(result.exit == 0, "\(result.error)")
      #expect(
        result.error
          == (noted
            ? "Note: no session in '\(fixture.path)' recorded a registration at '\(site)' or a "
              + "control named '\(site)'; name the site as the lint table's site column shows it\n"
            : ""),
        "\(site)")
    }
    #expect(try await Self.suppressions(fixture.path).count == 3)
  }

  @Test("suppress on a missing database is 66 and creates no file")
  func suppressMissingDatabase() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("missing.sqlite")
    let result = await CLIRunner.run([
      "lint", "suppress", "mixed-wiring", "A.swift:1", "--reason", "r", "--db", path,
    ])
    #expect(result.exit == 66)
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test(
    "a file from before schema 0004: suppressions lists none and unsuppress is 66, both leaving it untouched; suppress upgrades it"
  )
  func olderFile() async throws {
    let old = try FixtureDatabase(migrations: 3)
    try old.session(1, name: "old")
    let before = try Data(contentsOf: URL(fileURLWithPath: old.path))
    #expect(try await Self.suppressions(old.path).isEmpty)
    let lift = await CLIRunner.run([
      "lint", "unsuppress", "mixed-wiring", "A.swift:1", "--db", old.path,
    ])
    #expect(lift.exit == 66)
    #expect(try Data(contentsOf: URL(fileURLWithPath: old.path)) == before)
    // Read through the fixture's own connection, which also sees what is still in the -wal.
    #expect(
      try Migrator.state(of: old.connection).pending == [
        "0004_interactions", "0005_summaries", "0006_summary_rollups", "0007_rollouts",
        "0008_deliveries", "0009_summary_checksums",
      ])
    let add = await CLIRunner.run([
      "lint", "suppress", "mixed-wiring", "A.swift:1", "--reason", "r", "--db", old.path,
    ])
    #expect(add.exit == 0, "\(add.error)")
    #expect(try await Self.suppressions(old.path).count == 1)
  }

  @Test(
    "hostile names in a suppression are escaped on the terminal and read back exactly from JSON")
  func hostileSuppression() async throws {
    let fixture = try Self.fixture()
    let site = HostileNames.control + "::error::x"
    let result = await CLIRunner.run([
      "lint", "suppress", "mixed-wiring", site, "--reason", HostileNames.reason, "--actor",
      HostileNames.owner, "--db", fixture.path,
    ])
    #expect(result.exit == 0, "\(result.error)")
    #expect(
      Set(result.out.unicodeScalars).subtracting(["\n"]).isDisjoint(with: HostileNames.forbidden))
    let table = await CLIRunner.run(["lint", "suppressions", "--db", fixture.path])
    #expect(
      Set(table.out.unicodeScalars).subtracting(["\n"]).isDisjoint(with: HostileNames.forbidden))
    let entries = try await Self.suppressions(fixture.path)
    #expect(entries.first?["site"] as? String == site)
    #expect(entries.first?["reason"] as? String == HostileNames.reason)
  }
}

/// The completion scripts' model of `sleeve lint`.
@Suite("Lint completions")
struct LintCompletionTests {
  @Test(
    "lint completes its actions, check ids after --disable, severities after --fail-on and the CI formats"
  )
  func lintValues() throws {
    let model = CompletionModel(specs: SleeveCLI.commands.map { $0.spec })
    let lint = try #require(model.subcommands.first { $0.name == "lint" })
    #expect(lint.arguments == .choices(["suppress", "unsuppress", "suppressions"]))
    let values = Dictionary(uniqueKeysWithValues: lint.options.map { ($0.name, $0.values) })
    #expect(values["disable"] == .choices(LintCheck.allCases.map(\.id)))
    #expect(values["fail-on"] == .choices(["error", "warning", "note"]))
    #expect(values["format"] == .choices(JudgedFormat.allCases.map(\.rawValue)))
    // The quarantine command still completes its own actions.
    let quarantine = try #require(model.subcommands.first { $0.name == "quarantine" })
    #expect(quarantine.arguments == .choices(["add", "remove", "list"]))
  }
}
