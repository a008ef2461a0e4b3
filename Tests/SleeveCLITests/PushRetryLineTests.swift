import Foundation
import SleeveExport
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// `sleeve export --endpoint` is never silent while it waits: each retry says its attempt, what
/// happened (the status or the connection error) and the wait before the next attempt; on a
/// terminal as one line redrawn and cleared, elsewhere as one plain line per retry. The
/// receiver's text in it is escaped. Waits are the default policy's (about 1 s, then 2 s) with
/// seeded jitter, so each test waits a few seconds at most and asserts no timing.
@Suite(
  "export --endpoint shows its retries",
  .enabled(if: Proofs.run(needs: .python3), "needs python3 (scripts/otlp-test-server)"),
  .timeLimit(.minutes(10)))
struct PushRetryLineTests {
  /// A receiver message that tries to retitle the window and reverse the line.
  static let hostile = "busy \u{1B}]0;PWNED\u{07} \u{202E}desrever"

  /// A push of session 1 (one trace request, then metrics) in-process, with `seed`'s jitter.
  static func push(
    to server: LoopbackOTLPServer, errorIsTerminal: Bool, columns: Int = 300, seed: UInt64
  ) async throws -> CLIRunner.Result {
    let fixture = try FixtureDatabase.standard()
    let jitter = SeededJitter(seed: seed)
    let console = Console.capturing(
      columns: columns, errorIsTerminal: errorIsTerminal, retryJitter: { jitter.next() })
    let code = await SleeveCLI.run(
      ["export", "--db", fixture.path, "--session", "1", "--endpoint", server.baseURL],
      console: console)
    return CLIRunner.Result(
      exit: code.rawValue, out: console.capturedOutput, error: console.capturedError)
  }

  /// The waits the default policy draws from `seed`, retry by retry, as the line prints them.
  static func waits(seed: UInt64, count: Int) -> [String] {
    let jitter = SeededJitter(seed: seed)
    return (1...count).map { retry in
      let wait = RetryPolicy().interval(beforeRetry: retry, unit: jitter.next()).components
      let seconds = Double(wait.seconds) + Double(wait.attoseconds) / 1e18
      return Formatting.fixed(seconds, digits: 1) + " s"
    }
  }

  @Test("without a terminal, each retry is one plain line: attempt, status or error, next wait")
  func plainLinePerRetry() async throws {
    // A 503 with a hostile message, then a connection closed unanswered, then accepted.
    let server = try await LoopbackOTLPServer.start(["503:message=\(Self.hostile)", "close", "200"])
    defer { server.stop() }
    let seed: UInt64 = 120  // short waits: 0.5 s, then 1.1 s
    let result = try await Self.push(to: server, errorIsTerminal: false, seed: seed)
    #expect(result.exit == 0, "\(result.error)")
    let waits = Self.waits(seed: seed, count: 2)
    let url = server.baseURL + "/v1/traces"
    let lines = result.error.split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init)
    let retries = lines.filter { $0.hasPrefix("POST ") }
    #expect(retries.count == 2, "seed \(seed): \(result.error.debugDescription)")
    #expect(
      retries.first
        == "POST \(url): attempt 1 failed (HTTP 503: busy ]0;PWNED desrever); attempt 2 in "
        + waits[0], "seed \(seed)")
    #expect(
      retries.last?.hasPrefix("POST \(url): attempt 2 failed (unreachable: ") == true,
      "\(retries)")
    #expect(retries.last?.hasSuffix("); attempt 3 in \(waits[1])") == true, "seed \(seed)")
    // Before the push's own lines, which are as they were.
    #expect(lines.firstIndex(of: retries[1]) == 1, "\(lines)")
    #expect(lines[2].hasPrefix("Session 1 'alpha' traces: 1 request"), "\(lines)")
    for forbidden in ["\r", "\u{1B}", "\u{07}", "\u{202E}"] {
      #expect(!result.error.contains(forbidden), "\(forbidden.debugDescription) on stderr")
    }
  }

  @Test("on a terminal, each retry redraws one line, cut to the width, cleared before the rest")
  func redrawnLineOnTerminal() async throws {
    let server = try await LoopbackOTLPServer.start(["503", "503", "200"])
    defer { server.stop() }
    let seed: UInt64 = 120  // short waits: 0.5 s, then 1.1 s
    let columns = 70
    let result = try await Self.push(
      to: server, errorIsTerminal: true, columns: columns, seed: seed)
    #expect(result.exit == 0, "\(result.error)")
    let waits = Self.waits(seed: seed, count: 2)
    let url = server.baseURL + "/v1/traces"
    let full = [1, 2].map {
      "POST \(url): attempt \($0) failed (HTTP 503: Service Unavailable); attempt \($0 + 1) "
        + "in \(waits[$0 - 1])"
    }
    // Two drawings and the clearing, then the push's lines from the start of the row.
    let drawings = result.error.split(separator: "\r", omittingEmptySubsequences: false)
      .map(String.init)
    try #require(drawings.count == 5, "seed \(seed): \(result.error.debugDescription)")
    #expect(drawings[0].isEmpty)
    for (drawn, line) in zip(drawings[1...2], full) {
      let shown = drawn.trimmingCharacters(in: .whitespaces)
      #expect(line.hasPrefix(shown) && shown.count > 40, "\(drawn.debugDescription)")
      #expect(drawn.count <= columns - 1, "a drawing wider than the terminal wraps")
    }
    #expect(drawings[2].count >= drawings[1].count, "the second drawing covers the first")
    #expect(drawings[3] == String(repeating: " ", count: drawings[2].count), "not cleared")
    let rest = drawings[4]
    #expect(
      rest.hasPrefix("Session 1 'alpha' traces: 1 request (52 spans) delivered to \(url)"),
      "\(rest)")
    #expect(!rest.contains("POST "), "a retry line printed as a line on a terminal")
  }

  @Test("a dead receiver shows each retry with its connection error before exiting 69")
  func deadReceiverIsNotSilent() async throws {
    let fixture = try FixtureDatabase.standard()
    let closed = try await LoopbackOTLPServer.start(["200"])
    let url = closed.baseURL
    closed.stop()
    // The real binary, standard error a file: random jitter, but any first wait (0.5 to 1.5 s)
    // fits a 3 s budget, so there is a retry whatever it draws.
    let result = try await CLIRunner.runChild([
      "export", "--db", fixture.path, "--session", "1", "--endpoint", url, "--retry-budget", "3s",
    ])
    #expect(result.exit == 69, "\(result.error)")
    let lines = result.error.split(separator: "\n").map(String.init)
    let retries = lines.filter { $0.hasPrefix("POST ") }
    try #require(!retries.isEmpty, "silent while retrying: \(result.error)")
    for (index, line) in retries.enumerated() {
      #expect(
        line.contains("/v1/traces: attempt \(index + 1) failed (unreachable: "), "\(line)")
      #expect(
        try Regex(#"\); attempt \d+ in \d+\.\d s$"#).firstMatch(in: line) != nil, "\(line)")
    }
    #expect(!result.error.contains("\r"))
    #expect(lines.last?.hasPrefix("Error: POST \(url)/v1/traces: unreachable: ") == true)
    #expect(lines.last?.hasSuffix("; nothing more was marked delivered") == true)
  }

  @Test("with standard error on a real terminal, the retry line is drawn and then cleared")
  func realTerminal() async throws {
    let fixture = try FixtureDatabase.standard()
    let server = try await LoopbackOTLPServer.start(["503", "200"])
    defer { server.stop() }
    let url = server.baseURL + "/v1/traces"
    let result = try await PseudoTerminal.run(
      ChildProcess.sleeveBinary,
      ["export", "--db", fixture.path, "--session", "1", "--endpoint", server.baseURL],
      columns: 200, errorOnTerminal: true)
    #expect(result.status == 0, "\(result.screen)")
    let drawn = "\rPOST \(url): attempt 1 failed (HTTP 503: Service Unavailable); attempt 2 in "
    #expect(result.screen.hasPrefix(drawn), "\(result.screen.debugDescription)")
    let cleared = try #require(
      try Regex(#"\r +\rSession 1 'alpha' traces: 1 request"#).firstMatch(in: result.screen),
      "\(result.screen.debugDescription)")
    #expect(!result.screen[cleared.range.upperBound...].contains("\r"))
  }

  @Test("a push failure is an error that carries its exit code, printed once by the top level")
  func failureCarriesItsCode() {
    let unreachable = OTLPPushError(
      kind: .unreachable, endpoint: "http://h/v1/traces", message: "refused", attempts: 3)
    let refused = OTLPPushError(
      kind: .rejected(status: 400), endpoint: "http://h/v1/traces", message: "bad", attempts: 1)
    #expect(SleeveCLI.failure(unreachable).code == .unavailable)
    #expect(SleeveCLI.failure(refused).code == .refused)
    #expect(
      SleeveCLI.failure(unreachable).message
        == unreachable.description + "; nothing more was marked delivered")
    #expect(SleeveCLI.failure(refused).message == refused.description)
    let changed = OTLPSessionChanged(endpoint: "http://h/v1/traces", sequence: 2)
    #expect(SleeveCLI.failure(changed).code == .unavailable)
    #expect(SleeveCLI.failure(changed).message == changed.description)
  }
}
