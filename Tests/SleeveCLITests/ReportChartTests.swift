import Foundation
import SleeveTestSupport
import Testing

/// The HTML report's charts never hide what matters: every handler that failed is drawn, the
/// chart says how many it left out, the scale keeps small rates readable, axes have ticks,
/// a handler seen in one session still has a chart, and every n is invocations.
@Suite("Report charts", .serialized)
struct ReportChartTests {
  /// The `<svg>` whose title starts with `title`.
  static func chart(_ html: String, titled title: String) throws -> String {
    let pieces = html.components(separatedBy: "<svg ").dropFirst()
    return try #require(pieces.first { $0.contains("<title>" + title) }, "no chart '\(title)'")
  }

  /// The width of the bar drawn for `handler` in the error-rate chart.
  static func barWidth(_ chart: String, handler: String) throws -> Double {
    let label = try #require(chart.range(of: ">\(handler)</text>"), "\(handler) not drawn")
    let rest = chart[label.upperBound...]
    let width = try #require(rest.range(of: #"width="[0-9.]+""#, options: .regularExpression))
    return Double(rest[width].dropFirst(7).dropLast()) ?? -1
  }

  @Test(
    "the error-rate chart draws every failing handler past the first 12, says how many it left out, and keeps a 3% rate readable"
  )
  func errorRateChart() async throws {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "many")
    // 14 handlers invoked 200 times, most invoked first; one fails 3%; the 15th, invoked once,
    // fails every time (a Wilson interval up to 79%).
    for number in Int64(1)...15 {
      try fixture.handler(
        session: 1, number: number, name: "h\(number)", control: "C", identifier: "h\(number)")
      let count = number == 15 ? 1 : 300 - Int(number)
      let failures = number == 15 ? 1 : number == 2 ? count * 3 / 100 : 0
      try fixture.samples(
        session: 1, handler: number,
        (0..<count).map { .init(1_000_000 + Int64($0), failed: $0 < failures) })
    }
    let result = await CLIRunner.run(["report", "--db", fixture.path, "--format", "html"])
    #expect(result.exit == 0, "\(result.error)")
    let chart = try Self.chart(result.out, titled: "Error rate per handler")
    #expect(chart.contains(">h15</text>"), "the handler failing 100% is drawn")
    #expect(chart.contains("3 handlers not drawn (none failed)"))
    let full = try Self.barWidth(chart, handler: "h15")
    let small = try Self.barWidth(chart, handler: "h2")
    #expect(small >= full * 0.1, "a 3% bar is \(small) px beside the 100% bar's \(full) px")
    #expect(chart.contains(">0.00%</text>") && chart.contains(">100.00%</text>"), "axis ticks")
    #expect(chart.contains("2.68% (8 of 298)"), "each bar says its n: invocations")
  }

  @Test("the latency legend's n is the cohort's invocations, not the points drawn")
  func latencyLegendCountsInvocations() async throws {
    // From summaries, the chart draws a sample of about 4,096 points whatever the cohort's n.
    let fixture = try FixtureDatabase.standard()
    try fixture.summarizeEnded()
    let json = await CLIRunner.run([
      "report", "--db", fixture.path, "--session", "all", "--format", "json",
    ])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
    let flag = try #require((object["flags"] as? [[String: Any]])?.first)
    let on = try #require((flag["on"] as? [String: Any])?["n"] as? Int)
    let off = try #require((flag["off"] as? [String: Any])?["n"] as? Int)
    let html = await CLIRunner.run([
      "report", "--db", fixture.path, "--session", "all", "--format", "html",
    ])
    let chart = try Self.chart(html.out, titled: "Latency distribution")
    #expect(chart.contains("flag on (n \(on))"), "on n \(on)")
    #expect(chart.contains("flag off (n \(off))"), "off n \(off)")
    #expect(chart.contains(">50%</text>"), "share ticks")
  }

  @Test(
    "on demo --history a handler seen in one session has a trend chart with its point, ticks and session labels"
  )
  func trendOfOneSession() async throws {
    let (path, _) = await RecordedHistory.shared.recorded()
    let result = await CLIRunner.run([
      "report", "--db", path, "--baseline", "branch=main", "--format", "html",
    ])
    #expect(result.exit == 0, "\(result.error)")
    let lookUp = try Self.chart(result.out, titled: "checkout.postcode/look-up-address")
    #expect(lookUp.contains("<circle"), "its p99 is drawn")
    #expect(lookUp.contains(">15</text>"), "its session is labelled")
    #expect(lookUp.contains(">100.00%</text>"), "its error-rate axis has ticks")
    let steady = try Self.chart(result.out, titled: "checkout.pay/submit-order")
    for session in 1...15 { #expect(steady.contains(">\(session)</text>"), "session \(session)") }
  }
}
