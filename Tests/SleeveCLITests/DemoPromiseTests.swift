import Foundation
import SleeveTestSupport
import Testing

/// What `sleeve demo` promises a newcomer, held by construction: README's gate gives the same
/// verdicts on any machine (the demo's durations are simulated), a second recording gives the
/// same figures, and the "Try next" commands run as printed.
@Suite("demo keeps its word", .serialized)
struct DemoPromiseTests {
  /// Every check's verdict in `check --format json` output, as `subject metric: verdict`.
  static func verdicts(_ json: String) throws -> [String: String] {
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(json)")
    let flags = object["flags"] as? [[String: Any]] ?? []
    let checks =
      (object["checks"] as? [[String: Any]] ?? [])
      + flags.flatMap { $0["checks"] as? [[String: Any]] ?? [] }
    var verdicts: [String: String] = [:]
    for check in checks {
      let key = "\(check["subject"] as? String ?? "?") \(check["metric"] as? String ?? "?")"
      verdicts[key] = check["verdict"] as? String ?? "?"
    }
    return verdicts
  }

  @Test("README's query block after demo runs, each line with the exit its comment states")
  func readmeQueryBlockRuns() async throws {
    let (path, exit) = await RecordedDemo.shared.recorded()
    try #require(exit == 0)
    let section = try ReadmeSnippet.section("## Two commands", of: "README.md")
    let after = try #require(section.range(of: "Then query what the demo recorded:"))
    let block = try #require(
      ReadmeSnippet.between("```sh", "```", in: String(section[after.upperBound...])))
    // `swift run sleeve X …; echo "…: $?"  # exit N: …` is read as `sleeve X …  # exit N: …`.
    let lines = block.filter { $0.hasPrefix("swift run sleeve ") }.map { line in
      let command = line.dropFirst("swift run ".count)
      let comment = command.range(of: "#").map { String(command[$0.lowerBound...]) } ?? ""
      let run = command.prefix { $0 != ";" && $0 != "#" }
      return ReadmeCommandLine(String(run) + " " + comment)
    }
    #expect(lines.count == 6)
    #expect(lines.filter { $0.exit != 0 }.count == 2, "the gate and lint state their exit 1")
    for line in lines {
      let result = await CLIRunner.run(line.arguments + ["--db", path])
      #expect(result.exit == line.exit, "\(line.arguments): \(result.error)")
    }
    // "9 findings, one per check": the lint comment's count is the checks'.
    let lint = await CLIRunner.run(["lint", "--db", path, "--format", "json"])
    let findings = try #require(
      (try JSONSerialization.jsonObject(with: Data(lint.out.utf8)) as? [String: Any])?["findings"]
        as? [[String: Any]], "\(lint.out)")
    let checks = Set(findings.compactMap { $0["check"] as? String })
    #expect(
      findings.count == 9 && checks.count == 9, "\(findings.count) findings, \(checks.count) checks"
    )
    #expect(block.contains { $0.contains("# exit 1: \(findings.count) findings, one per check") })
  }

  @Test(
    "README's gate after demo rolls back (exit 1) for the new checkout's errors and slowness only"
  )
  func readmeGate() async throws {
    let (path, exit) = await RecordedDemo.shared.recorded()
    try #require(exit == 0)
    let gate = await CLIRunner.run([
      "check", "--db", path, "--max-error-rate", "5%", "--max-p99", "10ms", "--format", "json",
    ])
    #expect(gate.exit == 1, "\(gate.error)")
    #expect(
      try Self.verdicts(gate.out) == [
        "flag new-checkout (on) errorRate": "breach",
        "flag new-checkout (on) p99": "pass",
        "flag new-checkout (on vs off) errorRateVersusOff": "breach",
        "flag new-checkout (on vs off) latencyVersusOff": "breach",
        "all handlers errorRate": "pass",
        "all handlers p99": "pass",
      ])
  }

  @Test(
    "two recordings of the demo give the same latency, errors, lint and gate, figure for figure")
  func sameFiguresTwice() async throws {
    let (first, exit) = await RecordedDemo.shared.recorded()
    try #require(exit == 0)
    let directory = TemporaryDirectory()
    let second = directory.path("again.sqlite")
    let demo = try await CLIRunner.runChild(["demo", "--db", second])
    try #require(demo.exit == 0, "\(demo.error)")
    for command in [
      ["latency", "--by", "handler", "--percentiles", "50,95,99", "--exact"],
      ["errors", "--by", "handler"], ["lint"],
      ["check", "--max-error-rate", "5%", "--max-p99", "10ms"],
    ] {
      let one = await CLIRunner.run(command + ["--db", first, "--format", "json"])
      let two = await CLIRunner.run(command + ["--db", second, "--format", "json"])
      #expect(!one.out.isEmpty && one.exit == two.exit, "\(command)")
      #expect(one.out == two.out, "\(command)")
    }
    // Tagged as simulated, and found by the tag.
    let tagged = await CLIRunner.run([
      "sessions", "--db", second, "--tag", "simulated-durations", "--format", "csv",
    ])
    #expect(tagged.out.split(separator: "\n").count == 2, "\(tagged.out)")
  }

  /// The demo's "Try next" lines when the binary runs with `PATH` set to `path`.
  static func hints(path: String) async throws -> [Substring] {
    let directory = TemporaryDirectory()
    let result = try await CLIRunner.runChild(
      ["demo", "--db", directory.path("d.sqlite"), "--fires", "1"], environment: ["PATH": path])
    #expect(result.exit == 0, "\(result.error)")
    let lines = result.out.split(separator: "\n")
    let start = try #require(lines.firstIndex(of: "Try next:"))
    return lines[(start + 1)...].map { $0.drop { $0 == " " } }
  }

  @Test("Try next says sleeve when the sleeve on PATH is the one running, else swift run sleeve")
  func tryNextRunsAsPrinted() async throws {
    let binary = URL(fileURLWithPath: ChildProcess.sleeveBinary).resolvingSymlinksInPath()
    let own = binary.deletingLastPathComponent().path
    let onPath = try await Self.hints(path: "/usr/bin:\(own):/bin")
    #expect(onPath.count == 6)
    #expect(onPath.allSatisfy { $0.hasPrefix("sleeve ") }, "\(onPath)")
    let offPath = try await Self.hints(path: "/usr/bin:/bin")
    #expect(offPath.count == 6)
    #expect(offPath.allSatisfy { $0.hasPrefix("swift run sleeve ") }, "\(offPath)")
    // Another sleeve earlier on PATH is the one a shell runs: not this one.
    let other = TemporaryDirectory()
    let impostor = other.path("sleeve")
    try "#!/bin/sh\nexit 0\n".write(toFile: impostor, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: impostor)
    let shadowed = try await Self.hints(path: "\(other.url.path):\(own)")
    #expect(shadowed.allSatisfy { $0.hasPrefix("swift run sleeve ") }, "\(shadowed)")
  }

  @Test("the session glob of the tour on the querying page matches the demo's session")
  func readmeNamesExist() async throws {
    let (path, exit) = await RecordedDemo.shared.recorded()
    try #require(exit == 0)
    // The tour's session glob matches the demo's session.
    let latency = await CLIRunner.run([
      "latency", "--db", path, "--name", "Checkout*", "--by", "control", "--percentiles",
      "50,90,99.9",
    ])
    #expect(latency.exit == 0, "\(latency.error)")
    // The flaky page's quarantine lines run on demo --history's data: FlakyCommandTests.
  }
}
