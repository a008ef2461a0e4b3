import Foundation
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// Integers stay integers in every format, and values at the ends of Int64 never trap an
/// output writer or chart.
@Suite("Extreme values in output")
struct ExtremeValueOutputTests {
  static let large: Int64 = 1 << 62 + 1
  static let largest = Int64.max

  static func database() throws -> FixtureDatabase {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "run")
    try fixture.handler(session: 1, number: 1, name: "h", control: "c")
    try fixture.outcomes(session: 1, handler: 1, durations: [large, largest])
    return fixture
  }

  @Test(
    "latency min and max above 2^53 are exact integers in CSV and JSON, never exponents in tables")
  func latencyKeepsIntegers() async throws {
    let fixture = try Self.database()
    let csv = await CLIRunner.run(["latency", "--db", fixture.path, "--format", "csv"])
    let records = try EscaperTests.csvParsed(csv.out)
    let header = try #require(records.first)
    let row = try #require(records.last)
    let field = { (name: String) in header.firstIndex(of: name).map { row[$0] } }
    #expect(field("min") == "4611686018427387905")
    #expect(field("max") == "9223372036854775807")
    let json = await CLIRunner.run(["latency", "--db", fixture.path, "--format", "json"])
    #expect(json.out.contains("\"min\": 4611686018427387905"))
    #expect(json.out.contains("\"max\": 9223372036854775807"))
    for format in ["table", "markdown"] {
      let shown = await CLIRunner.run(["latency", "--db", fixture.path, "--format", format])
      #expect(shown.exit == 0, "\(format): \(shown.error)")
      #expect(!shown.out.contains("e+"), "\(format) printed an exponent: \(shown.out)")
    }
  }

  @Test("a flag's max p99 of Int64.max is exact in the flags CSV")
  func flagThresholdKeepsIntegers() async throws {
    let fixture = try Self.database()
    try fixture.flag(
      session: 1, key: "k", owner: "o", maxErrorRate: nil, maxP99: .max, minSamples: 1,
      states: [("enabled", nil)])
    let csv = await CLIRunner.run(["flags", "--db", fixture.path, "--format", "csv"])
    let records = try EscaperTests.csvParsed(csv.out)
    let header = try #require(records.first)
    let row = try #require(records.last)
    #expect(header.firstIndex(of: "max p99").map { row[$0] } == "9223372036854775807")
  }

  @Test(
    "raw numbers: integral values as exact digits, others round-trip",
    arguments: [
      (0x1p60, "1152921504606846976"), (1e15, "1000000000000000"), (-5, "-5"),
      (0.5, "0.5"), (0x1p63, "9.223372036854776e+18"), (-0.0, "0"),
    ])
  func rawNumbers(value: Double, expected: String) {
    #expect(Formatting.raw(value) == expected)
    #expect(JSONValue.double(value).text == expected)
  }

  @Test("JSON never prints a non-finite number")
  func nonFiniteJSON() {
    #expect(JSONValue.double(.infinity).text == "null")
    #expect(JSONValue.double(.nan).text == "null")
  }

  @Test("flag changes at INT64_MIN and INT64_MAX and extreme durations chart without a trap")
  func chartsTakeExtremeTimes() async throws {
    let fixture = try Self.database()
    try fixture.outcomes(session: 1, handler: 1, durations: [.min, -1, 0])
    try fixture.flag(
      session: 1, key: "k", owner: "o", maxErrorRate: 0.5, maxP99: nil, minSamples: 1,
      states: [])
    try fixture.connection.execute(
      """
      INSERT INTO flag_events (session_id, key, state, reason, actor, at_unix_ns, at_ns)
      VALUES (1, 'k', 'enabled', NULL, 'a', -9223372036854775808, 0),
        (1, 'k', 'rolledBack', NULL, 'a', 9223372036854775807, 1),
        (1, 'k', 'disabled', NULL, 'a', 0, 2)
      """)
    for format in ["html", "markdown", "json"] {
      let result = await CLIRunner.run([
        "report", "--db", fixture.path, "--format", format, "--session", "all",
      ])
      #expect(result.exit == 0, "\(format): \(result.error)")
      if format == "html" {
        #expect(result.out.contains("<svg"))
        for bad in ["nan", "inf", "=\"-"] {
          #expect(!result.out.contains(bad), "the chart holds \(bad)")
        }
      }
    }
  }
}
