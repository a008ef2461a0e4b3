import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

/// A file holding texts far past the recorder's caps (written by hand, or merged from such a
/// file): every export format caps them on the way out as the recorder does on the way in, so
/// the output is bounded by what the rows hold, never by one long text times the rows.
@Suite("Export bounds: recorded texts capped on the way out")
struct ExportBoundsTests {
  /// How long each hostile text is: 97 times the 1,024-byte cap of a name.
  static let hostileBytes = 100_000
  static let fires = 40
  static let failed = 10
  static let name = RecordedText.Limit.name.bytes
  static let message = RecordedText.Limit.message.bytes

  /// One session: a flag-gated handler with `fires` fires, `failed` of them failed; with
  /// `hostile`, every text a row or the session holds is `hostileBytes` long, and the session
  /// has 100 environment variables and 100 tags, each past its cap.
  static func fixture(hostile: Bool) throws -> FixtureDatabase {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "alpha")
    try fixture.handler(
      session: 1, number: 1, name: "validate", control: "checkout.pay", flag: "new-pay",
      identifier: "validate.id")
    try fixture.outcomes(
      session: 1, handler: 1, durations: Array(repeating: 5, count: fires - failed), variant: 1)
    try fixture.outcomes(
      session: 1, handler: 1, durations: Array(repeating: 9, count: failed), status: 1,
      variant: 1)
    try fixture.connection.execute(
      "UPDATE outcomes SET error_type = 'E', error_message = 'm' WHERE status = 1")
    if hostile {
      let long = { (letter: String) in "printf('%.*c', \(hostileBytes), '\(letter)')" }
      try fixture.connection.execute(
        """
        UPDATE sessions SET name = \(long("n")), host = \(long("h")), os = \(long("o"));
        UPDATE registrations SET handler = \(long("r")), identifier = \(long("i")),
          site = \(long("s")), flag_key = \(long("f"));
        UPDATE controls SET name = \(long("c")), kind = \(long("k"));
        UPDATE outcomes SET error_type = \(long("t")), error_message = \(long("m"))
          WHERE status = 1;
        """)
      var environment: [String: String] = [:]
      for index in 0..<100 {
        environment["V\(index)" + String(repeating: "v", count: 2 * name)] = String(
          repeating: "x", count: 3 * message)
      }
      let tags = (0..<100).map { "t\($0)" + String(repeating: "g", count: 2 * name) }
      let update = try fixture.connection.prepare(
        "UPDATE sessions SET metadata_json = ?, tags_json = ?")
      try update.bind([
        .text(
          String(
            decoding: try JSONSerialization.data(withJSONObject: ["environment": environment]),
            as: UTF8.self)),
        .text(String(decoding: try JSONSerialization.data(withJSONObject: tags), as: UTF8.self)),
      ])
      try update.run()
    }
    try fixture.summarizeEnded()
    return fixture
  }

  static func export(_ fixture: FixtureDatabase, _ format: String) async -> String {
    let result = await CLIRunner.run([
      "export", "--db", fixture.path, "--session", "all", "--format", format,
    ])
    #expect(result.exit == 0, "\(result.error)")
    return result.out
  }

  /// The most a session's resource can hold once capped: its name twice, host and OS, 64
  /// tags and 64 environment variables at their caps (with their JSON around them).
  static let resourceBound = 4 * (name + 64) + 64 * (name + 64) + 64 * (name + message + 96)

  /// What each format may grow by when every text is at its cap, per row, per span and per
  /// request line: the texts each carries (plain ASCII here, so escaping adds nothing).
  static func growth(_ format: String, lines: Int) -> Int {
    switch format {
    case "ndjson", "csv":
      // Session name, control, kind, handler, identifier, site, flag key, error type; message.
      return fires * (8 * name + message)
    case "otlp-json":
      // A fire span: its name, control and kind. An outcome span: its name, handler,
      // identifier, site, flag key, and for a failure the exception type, message and status.
      return fires * (3 * name + 64) + fires * (5 * name) + failed * (name + 2 * message)
        + lines * resourceBound
    default:
      // Per data point (a histogram and a counter per status here, 3; 8 allowed): control,
      // handler, site and flag key.
      return lines * resourceBound + 8 * 4 * name
    }
  }

  @Test(
    "a file with texts 97 times the cap exports no more than the capped texts can hold",
    arguments: ["otlp-json", "otlp-metrics-json", "ndjson", "csv"])
  func exportIsBoundedByTheCappedContent(format: String) async throws {
    let plain = await Self.export(try Self.fixture(hostile: false), format)
    let hostile = await Self.export(try Self.fixture(hostile: true), format)
    let lines = hostile.split(separator: "\n").count
    let bound = plain.utf8.count + Self.growth(format, lines: lines)
    #expect(
      hostile.utf8.count <= bound,
      "\(format): \(hostile.utf8.count) bytes in \(lines) lines, more than the \(bound) the capped texts allow"
    )
    // The caps themselves: a text at its cap ends with the marker, and none is longer.
    #expect(hostile.contains(RecordedText.marker), "\(format): nothing was capped")
    let longest = Self.longestRun(hostile)
    #expect(longest <= Self.message, "\(format): a text \(longest) bytes long")
  }

  @Test(
    "a push of the same file sends and prints no more than the capped texts can hold",
    .enabled(if: Proofs.run(needs: .python3), "needs python3"))
  func pushIsBoundedByTheCappedContent() async throws {
    let server = try await LoopbackOTLPServer.start(["200"])
    defer { server.stop() }
    let plain = try Self.fixture(hostile: false)
    let plainBytes =
      await Self.export(plain, "otlp-json").utf8.count
      + Self.export(plain, "otlp-metrics-json").utf8.count
    let fixture = try Self.fixture(hostile: true)
    let result = await CLIRunner.run([
      "export", "--db", fixture.path, "--session", "all", "--endpoint", server.baseURL,
    ])
    #expect(result.exit == 0, "\(result.error)")
    let requests = try server.requests()
    let traces = requests.filter { $0.path == "/v1/traces" }.count
    let sent = requests.reduce(0) { $0 + $1.bodyLength }
    let bound =
      plainBytes + Self.growth("otlp-json", lines: traces)
      + Self.growth("otlp-metrics-json", lines: requests.count - traces)
    #expect(sent <= bound, "\(sent) bytes sent in \(requests.count) requests, bound \(bound)")
    #expect(Self.longestRun(requests.map(\.body).joined()) <= Self.message)
    // A line per signal, each naming the session once, at its cap.
    #expect(result.error.utf8.count <= 2 * (Self.name + 512), "\(result.error.utf8.count) bytes")
  }

  /// The longest run of one repeated ASCII letter: every hostile text is one.
  static func longestRun(_ text: String) -> Int {
    var longest = 0
    var run = 0
    var previous: UInt8 = 0
    for byte in text.utf8 {
      run = byte == previous ? run + 1 : 1
      previous = byte
      longest = max(longest, run)
    }
    return longest
  }
}
