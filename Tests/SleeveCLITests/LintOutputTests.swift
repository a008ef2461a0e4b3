import Foundation
import SleeveQuery
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// `sleeve lint`'s outputs from reports made by hand: every format against its golden, the
/// JSON's value types, the summary and notes, suppressed findings, the severity mapping in
/// JUnit and GitHub, and hostile names in every format.
@Suite("Lint output")
struct LintOutputTests {
  static let report = LintReportFixtures.representative

  /// `format`'s output of `report`, as `sleeve lint` writes it (CI formats without the job
  /// summary, which only the GitHub format appends, to a file).
  static func output(
    _ report: LintReport, _ format: JudgedFormat, failOn: LintSeverity = .error
  ) -> String {
    let summary = LintReportText.summary(report, failOn: failOn)
    let ci = CIReport.lint(
      report, failOn: failOn, summary: summary,
      markdown: LintReportText.markdown(report, failOn: failOn))
    return switch format {
    case .junit: JUnitXML.render(ci, timestamp: CIReportFixtures.timestamp)
    case .github: GitHubWorkflowCommands.annotations(ci)
    case .table, .json, .csv, .markdown:
      LintReportText.render(
        report, failOn: failOn, format: format.shared ?? .table, display: .plain)
    }
  }

  @Test(
    "each format's output of a constructed report matches its golden file",
    arguments: [
      (JudgedFormat.table, "lint-constructed-table.txt"), (.json, "lint-constructed.json"),
      (.csv, "lint-constructed.csv"), (.markdown, "lint-constructed.md"),
      (.junit, "lint-constructed-junit.xml"), (.github, "lint-constructed-github.txt"),
    ])
  func golden(format: JudgedFormat, file: String) {
    let text = Self.output(Self.report, format)
    CLIRunner.updateGoldenIfAsked(file, with: text)
    #expect(text == CLIRunner.golden(file))
  }

  @Test(
    "JSON evidence values are numbers: a count and nanoseconds as integers, a share as a number, a text as a string"
  )
  func jsonEvidenceTypes() throws {
    let text = Self.output(Self.report, .json)
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let findings = try #require(object["findings"] as? [[String: Any]])
    let stall = try #require(findings.first { $0["check"] as? String == "main-thread-stall" })
    let evidence = try #require(stall["evidence"] as? [[String: Any]])
    #expect(evidence.map { $0["name"] as? String } == ["p99", "max", "n"])
    // Integers are written without a decimal point, so they read back as exact integers.
    #expect(text.contains("\"nanoseconds\": 20500000\n"))
    #expect(text.contains("\"count\": 120\n"))
    #expect((evidence[0]["nanoseconds"] as? NSNumber)?.int64Value == 20_500_000)
    let orphan = try #require(findings.first { $0["check"] as? String == "orphaned-handler" })
    let orphanEvidence = try #require(orphan["evidence"] as? [[String: Any]])
    #expect((orphanEvidence[0]["share"] as? NSNumber)?.doubleValue == 0.25)
    #expect(orphanEvidence[1]["text"] as? String == "SearchController")
    #expect(object["sessions"] as? Int == 3)
    #expect(object["sessionsWithoutInteractionData"] as? Int == 1)
    #expect(object["exitCode"] as? Int == 1)
    #expect(
      (object["counts"] as? [String: Int])
        == ["error": 1, "warning": 2, "note": 1, "suppressed": 1])
  }

  @Test(
    "the first line says how many sessions were examined; a second line, only when some were recorded before schema 0004, names the checks that did not run for them"
  )
  func summaryAndSchemaNote() {
    let table = Self.output(Self.report, .table)
    let lines = table.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(
      lines.first
        == "sleeve lint: 3 sessions examined, 9 checks: 1 error, 2 warnings, 1 note, "
        + "1 suppressed. Exit 1 (--fail-on error).")
    let skipped = LintCheck.allCases.filter(\.needsInteractionData).map(\.id)
    #expect(
      lines[1]
        == "1 of the 3 sessions was recorded before schema 0004 (interactions and registration "
        + "lifetimes), so the interaction and lifetime checks did not run for it: "
        + skipped.joined(separator: ", ") + ".")
    let clean = Self.output(LintReportFixtures.clean, .table)
    #expect(
      clean
        == "sleeve lint: 2 sessions examined, 9 checks: 0 errors, 0 warnings, 0 notes, "
        + "0 suppressed. Exit 0 (--fail-on error).\n\nNo active findings.\n")
  }

  @Test(
    "suppressed findings are counted in the table's footer, not listed there, and listed with their suppression by JSON"
  )
  func suppressedFindings() throws {
    let table = Self.output(Self.report, .table)
    #expect(!table.contains("Checkout.swift:50"))
    #expect(
      table.hasSuffix(
        "\n1 suppressed finding is not shown: --format json lists it, 'sleeve lint "
          + "suppressions' the suppressions.\n"))
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(Self.output(Self.report, .json).utf8))
        as? [String: Any])
    let suppressed = try #require(object["suppressed"] as? [[String: Any]])
    #expect(suppressed.count == 1)
    #expect(suppressed[0]["site"] as? String == "CheckoutKit/Checkout.swift:50")
    #expect(
      (suppressed[0]["suppression"] as? [String: String])
        == ["reason": "by design, #31", "actor": "oncall"])
    let active = try #require(object["findings"] as? [[String: Any]])
    #expect(active.allSatisfy { $0["suppression"] is NSNull })
  }

  @Test("CSV has one row per finding, evidence as name=value pairs in one column, raw values")
  func csvRows() throws {
    let rows = try EscaperTests.csvParsed(Self.output(Self.report, .csv))
    #expect(rows.count == 1 + 4 + 1)
    let header = rows[0]
    let evidence = try #require(header.firstIndex(of: "evidence"))
    let check = try #require(header.firstIndex(of: "check"))
    let suppressed = try #require(header.firstIndex(of: "suppressed"))
    #expect(rows.dropFirst().allSatisfy { $0.count == header.count })
    let stall = try #require(rows.first { $0[check] == "main-thread-stall" })
    #expect(stall[evidence] == "p99=20500000; max=31000000; n=120")
    let orphan = try #require(rows.first { $0[check] == "orphaned-handler" })
    #expect(orphan[evidence] == "missed=0.25; owner=SearchController")
    #expect(rows.last?[check] == "silent-replacement")
    #expect(rows.last?[suppressed] == "by design, #31")
  }

  @Test(
    "in JUnit and GitHub an error fails, a warning is advisory and a note a notice; --fail-on warning makes warnings fail",
    arguments: [
      (LintSeverity.error, ["error", "warning", "warning", "notice", "notice"], 1, 2),
      (.warning, ["error", "error", "error", "notice", "notice"], 3, 0),
      (.note, ["error", "error", "error", "error", "notice"], 4, 0),
    ])
  func severityMapping(
    failOn: LintSeverity, annotations: [String], failures: Int, skipped: Int
  ) throws {
    let github = Self.output(Self.report, .github, failOn: failOn)
    let commands = RunnerReading.lines(github).compactMap(RunnerReading.command)
    #expect(commands.map(\.name) == annotations)
    // Annotated at the registration line, titled by suite, control and check.
    #expect(commands[0].properties["file"] == "CheckoutKit/Checkout.swift")
    #expect(commands[0].properties["line"] == "42")
    #expect(
      commands[0].properties["title"]
        == "sleeve lint: CheckoutView · handler-accumulation: Checkout.swift:42")
    #expect(commands[0].data.contains("why: " + LintCheck.accumulation.explanation))
    // The rage burst is the control's own finding: no site, named after the control.
    #expect(commands[3].properties["file"] == nil)
    #expect(
      commands[3].properties["title"] == "sleeve lint: PayButton · rage-interaction: PayButton")
    let junit = Self.output(Self.report, .junit, failOn: failOn)
    #expect(junit.contains("failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\""))
    #expect(junit.components(separatedBy: "<failure ").count - 1 == failures)
    #expect(junit.contains("<testsuite name=\"sleeve lint\" tests=\"5\""))
  }

  @Test(
    "JUnit lint output validates against the JUnit schema, hostile names included",
    .enabled(if: Proofs.run(needs: XMLLint.tool), "needs Debian's libxml2-utils (xmllint)"))
  func junitValidates() async throws {
    let directory = TemporaryDirectory()
    let reports =
      [Self.report, LintReportFixtures.clean]
      + (LintReportFixtures.hostileNames + [LintReportFixtures.hostileNames.joined()]).map(
        LintReportFixtures.hostile)
    for (number, report) in reports.enumerated() {
      let file = directory.path("lint-\(number).xml")
      try Self.output(report, .junit).write(toFile: file, atomically: false, encoding: .utf8)
      let result = try await XMLLint.validate(file)
      #expect(result.status == 0, "report \(number): \(result.output.prefix(2_000))")
      #expect(
        try await XMLLint.xpath("string(/testsuites/@tests)", in: file)
          == (try await XMLLint.xpath("count(//testcase)", in: file)))
    }
  }

  @Test(
    "hostile names stay inert in every format: no terminal control in the table or Markdown, no markup, no forged row or workflow command",
    arguments: LintReportFixtures.hostileNames)
  func hostileNames(name: String) throws {
    let report = LintReportFixtures.hostile(name)
    for format in [JudgedFormat.table, .markdown] {
      let text = Self.output(report, format)
      let scalars = Set(text.unicodeScalars).subtracting(["\n"])
      #expect(scalars.isDisjoint(with: HostileNames.forbidden), "\(format)")
    }
    // Markdown: every line of a finding's table row is one row.
    let markdown = Self.output(report, .markdown)
    #expect(!markdown.contains("<script>"))
    #expect(markdown.split(separator: "\n").filter { $0.hasPrefix("| ") }.count == 1 + 3)
    // CSV: a reader gets the names back exactly, one record per finding.
    let rows = try EscaperTests.csvParsed(Self.output(report, .csv))
    #expect(rows.count == 1 + 4)
    let control = try #require(rows[0].firstIndex(of: "control"))
    #expect(rows[1][control] == "control " + name)
    // JSON: the names read back exactly.
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(Self.output(report, .json).utf8))
        as? [String: Any])
    let findings = try #require(object["findings"] as? [[String: Any]])
    #expect(findings.first?["handler"] as? String == "handler " + name)
    // GitHub: exactly one command per line, no other line, and the control read back visibly.
    let lines = RunnerReading.lines(Self.output(report, .github))
    let commands = lines.compactMap(RunnerReading.command)
    #expect(commands.count == lines.count)
    #expect(commands.map(\.name) == ["error", "warning", "notice", "notice"])
    #expect(
      commands[0].properties["title"]
        == "sleeve lint: " + TerminalText.escaped("control " + name) + " · handler-accumulation: "
        + TerminalText.escaped("handler " + name))
  }

  @Test(
    "on a narrow terminal every line of the table output fits its width, the evidence wrapped under its finding",
    arguments: [40, 80, 120])
  func fitsTheTerminal(width: Int) {
    let display = TerminalDisplay(width: width, layout: .fit, colored: false)
    for report in [Self.report] + LintReportFixtures.hostileNames.map(LintReportFixtures.hostile) {
      let text = LintReportText.render(report, failOn: .error, format: .table, display: display)
      for line in text.split(separator: "\n") {
        #expect(CellWidth.of(String(line)) <= width, "\(width): \(line)")
      }
    }
    let text = LintReportText.render(Self.report, failOn: .error, format: .table, display: display)
    // Each word of the explanation is still there, in order, under its finding.
    let words = LintCheck.accumulation.explanation.split(separator: " ").map(String.init)
    let shown = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    let start = shown.firstIndex(of: "why:").map { shown.index(after: $0) } ?? shown.endIndex
    #expect(Array(shown[start...].prefix(words.count)) == words)
  }
}
