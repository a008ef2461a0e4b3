import Foundation
import SleeveCore
import SleeveQuery
import SleeveRecorder
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// `sleeve lint` end to end: sessions recorded through the real core and recorder, then the
/// command's exit codes, formats, `--disable` and suppressions over them.
@Suite("Lint end to end")
struct LintEndToEndTests {
  /// The line of the registration `configure` makes (the accumulation's site).
  static let configureLine = #line + 3
  @MainActor
  static func configure(_ button: Button) {
    button.on(.touchUpInside) { _ in }
  }

  /// Records one session in a fresh file: a `pay` button with a handler registered once by
  /// id, tapped once; with `pitfall`, the button is configured three times without an id
  /// (accumulation, an error) and tapped again. Returns the file's path.
  static func record(_ directory: TemporaryDirectory, pitfall: Bool) async throws -> String {
    let path = directory.path("lint.sqlite")
    let recorder = try await Recorder(path: path)
    let session = try await recorder.startSession(name: "checkout")
    await MainActor.run {
      let pay = Button(name: "checkout.pay", observer: session)
      pay.on(.touchUpInside, id: "submit") { _ in }
      pay.tap()
      if pitfall {
        for _ in 0..<3 { configure(pay) }
        pay.sendActions(for: .touchUpInside)
      }
    }
    try await session.end()
    try await recorder.close()
    return path
  }

  static var site: String { "SleeveCLITests/LintEndToEndTests.swift:\(configureLine)" }

  @Test("a clean session exits 0 with no active finding")
  func cleanExitsZero() async throws {
    let directory = TemporaryDirectory()
    let path = try await Self.record(directory, pitfall: false)
    let result = await CLIRunner.run(["lint", "--db", path])
    #expect(result.exit == 0, "\(result.error)")
    #expect(
      result.out
        == "sleeve lint: 1 session examined, 9 checks: 0 errors, 0 warnings, 0 notes, "
        + "0 suppressed. Exit 0 (--fail-on error).\n\nNo active findings.\n")
  }

  @Test(
    "an accumulation exits 1 and is shown at its registration site; --disable and a suppression each make it exit 0"
  )
  func accumulationFailsUntilDisabledOrSuppressed() async throws {
    let directory = TemporaryDirectory()
    let path = try await Self.record(directory, pitfall: true)
    let table = await CLIRunner.run(["lint", "--db", path])
    #expect(table.exit == 1, "\(table.error)")
    #expect(table.out.contains("error     handler-accumulation  checkout.pay"))
    #expect(table.out.contains(Self.site))
    let json = await CLIRunner.run(["lint", "--db", path, "--format", "json"])
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
    let findings = try #require(object["findings"] as? [[String: Any]])
    #expect(findings.map { $0["check"] as? String } == ["handler-accumulation"])
    let evidence = try #require(findings.first?["evidence"] as? [[String: Any]])
    #expect(
      evidence.contains { $0["name"] as? String == "registrations" && $0["count"] as? Int == 3 })

    let disabled = await CLIRunner.run([
      "lint", "--db", path, "--disable", "handler-accumulation",
    ])
    #expect(disabled.exit == 0, "\(disabled.error)")
    #expect(disabled.out.hasPrefix("sleeve lint: 1 session examined, 8 of 9 checks: 0 errors"))

    let suppress = await CLIRunner.run([
      "lint", "suppress", "handler-accumulation", Self.site, "--reason", "known, #7", "--db", path,
    ])
    #expect(suppress.exit == 0, "\(suppress.error)")
    let suppressed = await CLIRunner.run(["lint", "--db", path])
    #expect(suppressed.exit == 0, "\(suppressed.error)")
    #expect(suppressed.out.contains("1 suppressed finding is not shown"))
    let listed = await CLIRunner.run(["lint", "--db", path, "--format", "json"])
    #expect(listed.out.contains("\"reason\": \"known, #7\""))
    let lifted = await CLIRunner.run([
      "lint", "unsuppress", "handler-accumulation", Self.site, "--db", path,
    ])
    #expect(lifted.exit == 0, "\(lifted.error)")
    #expect(await CLIRunner.run(["lint", "--db", path]).exit == 1)
  }

  @Test(
    "JUnit of a recorded accumulation validates and fails it; GitHub annotates its registration line",
    .enabled(if: Proofs.run(needs: XMLLint.tool), "needs Debian's libxml2-utils (xmllint)"))
  func ciFormats() async throws {
    let directory = TemporaryDirectory()
    let path = try await Self.record(directory, pitfall: true)
    let junit = await CLIRunner.run(["lint", "--db", path, "--format", "junit"])
    #expect(junit.exit == 1, "\(junit.error)")
    let file = directory.path("lint.xml")
    try junit.out.write(toFile: file, atomically: false, encoding: .utf8)
    #expect(try await XMLLint.validate(file).status == 0)
    #expect(
      try await XMLLint.xpath("string(//testcase[1]/@name)", in: file)
        .hasPrefix("handler-accumulation: "))
    #expect(try await XMLLint.xpath("count(//testcase/failure)", in: file) == "1")
    let github = await CLIRunner.run(["lint", "--db", path, "--format", "github"])
    #expect(github.exit == 1, "\(github.error)")
    let commands = RunnerReading.lines(github.out).compactMap(RunnerReading.command)
    #expect(commands.first?.name == "error")
    #expect(commands.first?.properties["file"]?.hasSuffix("LintEndToEndTests.swift") == true)
    #expect(commands.first?.properties["line"] == String(Self.configureLine))
  }

  @Test(
    "a selection that matches no session exits 66; a file before schema 0004 is linted and says so")
  func emptySelectionAndOlderFile() async throws {
    let directory = TemporaryDirectory()
    let path = try await Self.record(directory, pitfall: false)
    let none = await CLIRunner.run(["lint", "--db", path, "--session", "99"])
    #expect(none.exit == 66, "\(none.error)")
    let old = directory.path("0002.sqlite")
    try OlderDatabase.create(at: old)
    let result = await CLIRunner.run(["lint", "--db", old])
    #expect(result.exit == 0, "\(result.error)")
    #expect(
      result.out.contains(
        "\nThe session was recorded before schema 0004 (interactions and registration "
          + "lifetimes), so the interaction and lifetime checks did not run for it: "))
  }
}
