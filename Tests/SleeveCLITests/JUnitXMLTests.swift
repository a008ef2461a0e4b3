import Foundation
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// Debian's `xmllint` (package `libxml2-utils`), and the JUnit schema the tests hold output to.
enum XMLLint {
  static var path: String? { Proofs.executable("xmllint") }
  /// xmllint, as a proof's need.
  static var tool: ProofTool { .program("xmllint", package: "libxml2-utils") }
  static let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Schemas/junit.xsd").path

  /// `xmllint --noout --schema junit.xsd file`: its status and what it said (awaited off the
  /// cooperative pool).
  static func validate(_ file: String) async throws -> ChildProcess.Result {
    try await ChildProcess.run(
      try #require(path), ["--noout", "--nonet", "--schema", schema, file],
      timeout: .seconds(120)
    ).result
  }

  /// The string value of an XPath expression over `file` (xmllint ends it with a line feed,
  /// which is taken off).
  static func xpath(_ expression: String, in file: String) async throws -> String {
    let result = try await ChildProcess.run(try #require(path), ["--xpath", expression, file])
    #expect(result.status == 0, "\(expression): \(result.output.prefix(500))")
    return result.output.hasSuffix("\n") ? String(result.output.dropLast()) : result.output
  }
}

@Suite("JUnit XML")
struct JUnitXMLTests {
  @Test(
    "rendered JUnit validates against the JUnit schema with xmllint, hostile strings included",
    .enabled(if: Proofs.run(needs: XMLLint.tool), "needs Debian's libxml2-utils (xmllint)"))
  func validatesWithHostileStrings() async throws {
    let directory = TemporaryDirectory()
    let megabyteName = String(repeating: "n<\u{01}é&\"👩‍👩‍👧", count: 48_000)
    #expect(megabyteName.utf8.count > 1_000_000)
    var reports = [CIReportFixtures.representative]
    reports += CIReportFixtures.hostileStrings.map(CIReportFixtures.report(holding:))
    reports.append(CIReportFixtures.report(holding: CIReportFixtures.hostileStrings.joined()))
    reports.append(CIReportFixtures.report(holding: megabyteName))
    reports.append(CIReport(title: "", summary: "", checks: [], markdownSummary: ""))
    for (number, report) in reports.enumerated() {
      let file = directory.path("report-\(number).xml")
      try JUnitXML.render(report, timestamp: CIReportFixtures.timestamp)
        .write(toFile: file, atomically: false, encoding: .utf8)
      let result = try await XMLLint.validate(file)
      #expect(result.status == 0, "report \(number): \(result.output.prefix(2_000))")
      #expect(result.output.contains("validates"), "report \(number)")
      // The totals are the test cases' own.
      let tests = try await XMLLint.xpath("string(/testsuites/@tests)", in: file)
      let cases = try await XMLLint.xpath("count(//testcase)", in: file)
      #expect(tests == cases, "report \(number)")
      let failures = try await XMLLint.xpath("string(/testsuites/@failures)", in: file)
      #expect(failures == (try await XMLLint.xpath("count(//testcase/failure)", in: file)))
      let skipped = try await XMLLint.xpath("string(/testsuites/@skipped)", in: file)
      #expect(skipped == (try await XMLLint.xpath("count(//testcase/skipped)", in: file)))
    }
    // The megabyte name is there, cut to the 1,024 bytes of a recorded name with the marker.
    let name = try await XMLLint.xpath(
      "string(//testcase[1]/@name)", in: directory.path("report-11.xml"))
    #expect(name.hasPrefix("failed n<\\x01é&\"👩‍👩‍👧n<"))
    #expect(name.hasSuffix("… [truncated]"))
    #expect(name.utf8.count > 1_024 && name.utf8.count < 2_048)
  }

  @Test(
    "a JUnit reader gets every name, message and evidence back as its visible form",
    .enabled(if: Proofs.run(needs: XMLLint.tool), "needs Debian's libxml2-utils (xmllint)"),
    arguments: CIReportFixtures.hostileStrings)
  func readsBack(text: String) async throws {
    let directory = TemporaryDirectory()
    let file = directory.path("report.xml")
    try JUnitXML.render(CIReportFixtures.report(holding: text))
      .write(toFile: file, atomically: false, encoding: .utf8)
    // What a reader sees: on one line in attributes, every control in its visible notation.
    let visible = Self.visible(text, keepingLineBreaks: false)
    #expect(
      try await XMLLint.xpath("string(//testcase[1]/@name)", in: file) == "failed " + visible)
    #expect(
      try await XMLLint.xpath("string(//testcase[1]/@classname)", in: file) == "class " + visible)
    #expect(
      try await XMLLint.xpath("string(//testcase[1]/failure/@message)", in: file)
        == "message " + visible)
    #expect(
      try await XMLLint.xpath("string(//testcase[1]/@file)", in: file)
        == "Sources/" + visible + ".swift")
    #expect(try await XMLLint.xpath("string(//testsuite[1]/@name)", in: file) == "suite " + visible)
    #expect(
      try await XMLLint.xpath("string(//testsuite[1]/properties/property/@value)", in: file)
        == "summary " + visible)
    // Bodies keep their line feeds.
    #expect(
      try await XMLLint.xpath("string(//testcase[1]/failure)", in: file)
        == "evidence\n" + Self.visible(text, keepingLineBreaks: true) + "\nend")
    #expect(
      try await XMLLint.xpath("string(//testcase[2]/skipped/@message)", in: file)
        == "advisory " + visible)
  }

  @Test("JUnit output of a representative report matches its golden file")
  func golden() {
    let xml = JUnitXML.render(
      CIReportFixtures.representative, timestamp: CIReportFixtures.timestamp)
    CLIRunner.updateGoldenIfAsked("ci-junit.xml", with: xml)
    #expect(xml == CLIRunner.golden("ci-junit.xml"))
  }

  @Test("one testsuite per suite in order of first appearance, with its own totals")
  func suitesAndTotals() {
    let xml = JUnitXML.render(CIReportFixtures.representative)
    let suites = xml.split(separator: "\n").filter { $0.hasPrefix("  <testsuite ") }
    #expect(suites.count == 2)
    #expect(
      suites.first?.hasPrefix(
        "  <testsuite name=\"sleeve diff\" tests=\"4\" failures=\"2\" errors=\"0\" skipped=\"1\"")
        == true)
    #expect(
      suites.last?.hasPrefix(
        "  <testsuite name=\"sleeve flaky\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"1\"")
        == true)
    #expect(
      xml.contains(
        "<testsuites name=\"sleeve diff: feature/checkout against main\" tests=\"5\" "
          + "failures=\"2\" errors=\"0\" skipped=\"2\" time=\"0\">"))
    #expect(!xml.contains("timestamp="), "no timestamp when none is given")
  }

  @Test("the timestamp is UTC without a zone designator, as the Ant schema asks")
  func timestampForm() {
    let xml = JUnitXML.render(
      CIReportFixtures.representative, timestamp: 1_764_590_400_999_999_999)
    #expect(xml.contains(" timestamp=\"2025-12-01T12:00:00\">"))
  }

  @Test(
    "the schema is not vacuous: xmllint rejects what JUnit readers would not read",
    .enabled(if: Proofs.run(needs: XMLLint.tool), "needs Debian's libxml2-utils (xmllint)"),
    arguments: [
      "<testsuites tests=\"1\"><testsuite name=\"s\" tests=\"1\"><testcase classname=\"c\"/>"
        + "</testsuite></testsuites>",
      "<testsuites tests=\"-1\"/>",
      "<testsuites tests=\"1\"><testsuite name=\"s\" tests=\"1\"><testcase name=\"t\">"
        + "<failure/><skipped/></testcase></testsuite></testsuites>",
      "<testsuites tests=\"1\"><testsuite name=\"s\" tests=\"1\" timestamp=\"2025-12-01T12:00:00Z\"/>"
        + "</testsuites>",
      "<testsuites tests=\"1\"><testsuite name=\"s\" tests=\"1\"><testcase name=\"t\" line=\"0\"/>"
        + "</testsuite></testsuites>",
      "<testsuites tests=\"1\"><testsuite name=\"\u{01}\" tests=\"1\"/></testsuites>",
    ])
  func schemaRejects(document: String) async throws {
    let directory = TemporaryDirectory()
    let file = directory.path("bad.xml")
    try ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + document)
      .write(toFile: file, atomically: false, encoding: .utf8)
    #expect(try await XMLLint.validate(file).status != 0)
  }

  @Test("XML escaping: markup characters, controls and U+FFFE/U+FFFF never reach the output raw")
  func escaping() {
    for text in CIReportFixtures.hostileStrings {
      for escaped in [MarkupText.escaped(text), MarkupText.escapedKeepingLineBreaks(text)] {
        let forbidden = escaped.unicodeScalars.filter { scalar in
          "<>\"'".unicodeScalars.contains(scalar) || scalar == "\u{FFFE}" || scalar == "\u{FFFF}"
            || (scalar.value < 0x20 && scalar != "\n") || scalar.value == 0x7F
            || (0x80...0x9F).contains(scalar.value)
        }
        #expect(forbidden.isEmpty, "\(text.debugDescription) → \(escaped.debugDescription)")
      }
      #expect(!MarkupText.escaped(text).unicodeScalars.contains("\n"))
    }
    #expect(MarkupText.escapedKeepingLineBreaks("a\nb\r\nc") == "a\nb\\r\nc")
    #expect(MarkupText.escaped("\u{FFFE}x\u{FFFF}") == "\\u{FFFE}x\\u{FFFF}")
  }

  /// What a reader should see of `text`: controls, bidirectional controls and the two
  /// noncharacters in the visible notation (line feeds kept in bodies), markup decoded.
  static func visible(_ text: String, keepingLineBreaks: Bool) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      if scalar == "\n" && keepingLineBreaks {
        out += "\n"
      } else if scalar == "\u{FFFE}" || scalar == "\u{FFFF}" {
        out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else if let form = TerminalText.visibleForm(of: scalar) {
        out += form
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
