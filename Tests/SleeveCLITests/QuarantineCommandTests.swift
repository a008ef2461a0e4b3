import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// `sleeve quarantine add|remove|list`: writes through the ledger, exit codes, formats, an
/// older file, usage errors.
@Suite("Quarantine command")
struct QuarantineCommandTests {
  static func fixture() throws -> FixtureDatabase {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "run")
    try fixture.handler(
      session: 1, number: 1, name: "submit", control: "CheckoutView", site: "Checkout.swift:10")
    return fixture
  }

  static func list(_ path: String) async throws -> [[String: Any]] {
    let result = await CLIRunner.run(["quarantine", "list", "--db", path, "--format", "json"])
    #expect(result.exit == 0, "\(result.error)")
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    return try #require(object["quarantine"] as? [[String: Any]])
  }

  @Test("add records the handler with its reason and the actor ($USER); adding again updates it")
  func addAndUpdate() async throws {
    let fixture = try Self.fixture()
    let first = await CLIRunner.run(
      ["quarantine", "add", "submit", "--db", fixture.path, "--reason", "flaky on CI"],
      environment: ["USER": "ci-bot"])
    #expect(first.exit == 0, "\(first.error)")
    #expect(
      first.out
        == "Quarantined handler 'submit' on every control (flaky on CI), by ci-bot.\n")
    let second = await CLIRunner.run([
      "quarantine", "add", "submit", "--db", fixture.path, "--reason", "tracked in #12",
      "--actor", "oncall",
    ])
    #expect(second.out.hasPrefix("Updated the quarantine of handler 'submit'"))
    let onControl = await CLIRunner.run([
      "quarantine", "add", "submit", "--control", "CheckoutView", "--db", fixture.path,
      "--reason", "only here",
    ])
    #expect(onControl.exit == 0, "\(onControl.error)")
    let entries = try await Self.list(fixture.path)
    #expect(entries.count == 2)
    #expect(entries[0]["reason"] as? String == "tracked in #12")
    #expect(entries[0]["actor"] as? String == "oncall")
    #expect(entries[0]["control"] is NSNull)
    #expect(entries[1]["control"] as? String == "CheckoutView")
  }

  @Test("add refuses a handler no session recorded (66, file unchanged) unless --create")
  func unknownHandler() async throws {
    let fixture = try Self.fixture()
    let before = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
    for arguments in [["charge"], ["submit", "--control", "PaymentView"]] {
      let result = await CLIRunner.run(
        ["quarantine", "add"] + arguments + ["--db", fixture.path, "--reason", "r"])
      #expect(result.exit == 66)
      #expect(result.error.hasPrefix("Error: handler '\(arguments[0])'"))
      #expect(result.error.hasSuffix("or pass --create\n"))
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.path)) == before)
    let created = await CLIRunner.run([
      "quarantine", "add", "charge", "--db", fixture.path, "--reason", "r", "--create",
    ])
    #expect(created.exit == 0, "\(created.error)")
    #expect(try await Self.list(fixture.path).map { $0["handler"] as? String } == ["charge"])
    let missing = await CLIRunner.run([
      "quarantine", "add", "x", "--db", "/nonexistent/sleeve.sqlite", "--reason", "r",
    ])
    #expect(missing.exit == 66)
  }

  @Test(
    "remove takes the entry out; removing what is not quarantined exits 66 and says where it is")
  func remove() async throws {
    let fixture = try Self.fixture()
    _ = await CLIRunner.run([
      "quarantine", "add", "submit", "--control", "CheckoutView", "--db", fixture.path,
      "--reason", "r",
    ])
    let everyControl = await CLIRunner.run([
      "quarantine", "remove", "submit", "--db", fixture.path,
    ])
    #expect(everyControl.exit == 66)
    #expect(
      everyControl.error
        == "Error: handler 'submit' is not quarantined on every control; it is quarantined "
        + "on control 'CheckoutView' (pass --control to remove one)\n")
    let removed = await CLIRunner.run([
      "quarantine", "remove", "submit", "--control", "CheckoutView", "--db", fixture.path,
    ])
    #expect(removed.exit == 0, "\(removed.error)")
    #expect(removed.out == "Handler 'submit' is no longer quarantined on control 'CheckoutView'.\n")
    #expect(try await Self.list(fixture.path).isEmpty)
    let again = await CLIRunner.run([
      "quarantine", "remove", "submit", "--control", "CheckoutView", "--db", fixture.path,
    ])
    #expect(again.exit == 66)
  }

  @Test(
    "a file from before the quarantine list: list is empty and remove is 66, both leaving it untouched; add upgrades it"
  )
  func olderFile() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("0002.sqlite")
    try OlderDatabase.create(at: path)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(try await Self.list(path).isEmpty)
    let remove = await CLIRunner.run(["quarantine", "remove", "submit", "--db", path])
    #expect(remove.exit == 66)
    let unknown = await CLIRunner.run([
      "quarantine", "add", "charge", "--db", path, "--reason", "r",
    ])
    #expect(unknown.exit == 66)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    let add = await CLIRunner.run(["quarantine", "add", "submit", "--db", path, "--reason", "r"])
    #expect(add.exit == 0, "\(add.error)")
    #expect(try Migrator.state(of: Connection(path: path)).pending.isEmpty)
    #expect(try await Self.list(path).map { $0["handler"] as? String } == ["submit"])
  }

  @Test(
    "list shows hostile names and reasons escaped in every format, one row per entry",
    arguments: ["table", "markdown", "csv"])
  func hostileList(format: String) async throws {
    let fixture = try FixtureDatabase()
    let ledger = QuarantineLedger(connection: fixture.connection)
    try ledger.add(
      .init(
        handler: HostileNames.handler, control: HostileNames.control,
        reason: HostileNames.reason, actor: HostileNames.owner))
    let result = await CLIRunner.run([
      "quarantine", "list", "--db", fixture.path, "--format", format,
    ])
    #expect(result.exit == 0, "\(result.error)")
    if format == "csv" {
      let records = try EscaperTests.csvParsed(result.out)
      #expect(records.count == 2)
      #expect(records[1][0] == HostileNames.handler)
      #expect(records[1][2] == HostileNames.reason)
    } else {
      #expect(
        !result.out.unicodeScalars.contains { HostileNames.forbidden.contains($0) },
        "\(result.out.debugDescription)")
      let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false)
      #expect(!lines.contains { $0.hasPrefix("forged") }, "\(result.out)")
    }
  }

  @Test("add's confirmation escapes a hostile handler and reason")
  func hostileConfirmation() async throws {
    let fixture = try FixtureDatabase()
    let result = await CLIRunner.run([
      "quarantine", "add", HostileNames.handler, "--db", fixture.path, "--reason",
      HostileNames.reason, "--create",
    ])
    #expect(result.exit == 0, "\(result.error)")
    #expect(result.out.split(separator: "\n").count == 1, "\(result.out.debugDescription)")
    #expect(!result.out.unicodeScalars.contains { HostileNames.forbidden.contains($0) })
  }

  @Test("flaky marks a quarantined handler")
  func flakyShowsQuarantine() async throws {
    let history = try FlakyHistory(seed: 3)
    _ = await CLIRunner.run([
      "quarantine", "add", "CheckoutView.swift:10", "--db", history.fixture.path,
      "--reason", "known flake",
    ])
    let result = await CLIRunner.run(["flaky", "--db", history.fixture.path, "--format", "json"])
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    let handlers = try #require(object["handlers"] as? [[String: Any]])
    #expect(
      handlers.map { "\($0["handler"] ?? ""):\($0["quarantined"] ?? "")" }
        == ["submit:1", "charge:0", "refresh:0"])
  }

  static let usageCases: [(arguments: [String], message: String)] = [
    (["quarantine"], "Missing expected argument '<action>'"),
    (["quarantine", "frob"], "Unknown action 'frob'; expected add, remove, list"),
    (["quarantine", "add"], "Missing expected argument '<handler>'"),
    (["quarantine", "add", "submit"], "Missing value for '--reason <text>': say why"),
    (
      ["quarantine", "add", "submit", "--reason", ""],
      "Missing value for '--reason <text>': say why"
    ),
    (
      ["quarantine", "add", "", "--reason", "r"], "The handler name is empty; name it as reports do"
    ),
    (["quarantine", "list", "extra"], "Unexpected argument 'extra'"),
    (["quarantine", "add", "a", "b", "--reason", "r"], "Unexpected argument 'b'"),
    (
      ["quarantine", "remove", "submit", "--reason", "r"],
      "The option '--reason' does not apply to 'quarantine remove'"
    ),
    (
      ["quarantine", "add", "submit", "--reason", "r", "--format", "json"],
      "The option '--format' does not apply to 'quarantine add'"
    ),
    (
      ["quarantine", "list", "--control", "c"],
      "The option '--control' does not apply to 'quarantine list'"
    ),
  ]

  @Test(
    "quarantine's usage errors: one Error line, the usage line, a pointer to help, exit 64",
    arguments: usageCases)
  func usageErrors(arguments: [String], message: String) async {
    await CLIRunner.expectUsageError(arguments, message, command: "quarantine")
  }

}
