import Foundation
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// How the GitHub Actions runner reads a step's output (actions/runner `ActionCommand.TryParseV2`
/// and its unescaping), restated from its documented behaviour for the tests.
enum RunnerReading {
  struct Command: Equatable {
    let name: String
    let properties: [String: String]
    let data: String
  }

  /// The lines the runner reads: CR, LF and CRLF each end one (.NET `ReadLine`).
  static func lines(_ output: String) -> [String] {
    var lines: [String] = []
    var current = String.UnicodeScalarView()
    var afterCR = false
    for scalar in output.unicodeScalars {
      if scalar == "\n" && afterCR {
        afterCR = false
        continue
      }
      afterCR = scalar == "\r"
      if scalar == "\n" || scalar == "\r" {
        lines.append(String(current))
        current = String.UnicodeScalarView()
      } else {
        current.append(scalar)
      }
    }
    if !current.isEmpty { lines.append(String(current)) }
    return lines
  }

  /// The command a line is, when it is one: it starts with `::` after leading white space, its
  /// name and properties end at the next `::`, the properties split at `,` and each at its
  /// first `=`.
  static func command(_ line: String) -> Command? {
    let trimmed = String(line.unicodeScalars.drop { $0.properties.isWhitespace })
    guard trimmed.hasPrefix("::") else { return nil }
    let afterPrefix = trimmed.index(trimmed.startIndex, offsetBy: 2)
    guard
      let end = trimmed.range(of: "::", options: .literal, range: afterPrefix..<trimmed.endIndex)
    else { return nil }
    let info = String(trimmed[afterPrefix..<end.lowerBound])
    let name = String(info.prefix { $0 != " " })
    var properties: [String: String] = [:]
    if let space = info.firstIndex(of: " ") {
      let list = info[info.index(after: space)...].trimmingCharacters(in: .whitespaces)
      for property in list.split(separator: ",") {
        let pair = property.split(separator: "=", maxSplits: 1)
        if pair.count == 2 {
          properties[String(pair[0])] = unescape(String(pair[1]), property: true)
        }
      }
    }
    return Command(
      name: name, properties: properties,
      data: unescape(String(trimmed[end.upperBound...]), property: false))
  }

  /// The runner's unescaping, in its order.
  static func unescape(_ text: String, property: Bool) -> String {
    let mappings =
      property
      ? [("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")]
      : [("%0D", "\r"), ("%0A", "\n"), ("%25", "%")]
    return mappings.reduce(text) {
      $0.replacingOccurrences(of: $1.0, with: $1.1, options: .literal)
    }
  }

  /// What the annotation should show of `lines`: each on a line of its own, in the terminal's
  /// visible notation (a line break inside one too).
  static func visible(_ lines: [String]) -> String {
    lines.map(TerminalText.escaped).joined(separator: "\n")
  }
}

@Suite("GitHub workflow commands")
struct GitHubWorkflowCommandsTests {
  @Test("--format github annotations of a representative report match their golden text")
  func golden() {
    let output = GitHubWorkflowCommands.annotations(CIReportFixtures.representative)
    CLIRunner.updateGoldenIfAsked("ci-github.txt", with: output)
    #expect(output == CLIRunner.golden("ci-github.txt"))
  }

  @Test("--format github annotations of a report of hostile names match their golden text")
  func hostileGolden() {
    let report = CIReportFixtures.report(holding: CIReportFixtures.hostileStrings.joined())
    let output = GitHubWorkflowCommands.annotations(report)
    CLIRunner.updateGoldenIfAsked("ci-github-hostile.txt", with: output)
    #expect(output == CLIRunner.golden("ci-github-hostile.txt"))
  }

  @Test(
    "an injected '\\n::stop-commands::x' (or any hostile text) starts no line but the intended commands",
    arguments: CIReportFixtures.hostileStrings + [
      "\n::stop-commands::x", "\r::add-mask::s", "\r\n::set-output name=x::y", "  ::error::x",
      "x\u{2028}::warning::y", "%0A::add-mask::s", "%250A::x", "a::b,c=d:e",
    ])
  func noInjectedCommand(text: String) throws {
    let report = CIReportFixtures.report(holding: text)
    let output = GitHubWorkflowCommands.annotations(report)
    #expect(output.hasSuffix("\n"))
    let lines = RunnerReading.lines(output)
    // One line per check that did not pass, then the notice: nothing else.
    #expect(lines.count == 3, "\(output.debugDescription)")
    let commands = lines.compactMap(RunnerReading.command)
    #expect(commands.map(\.name) == ["error", "warning", "notice"])
    for line in lines {
      #expect(
        line.hasPrefix("::error ") || line.hasPrefix("::warning ") || line.hasPrefix("::notice "))
    }
    for command in commands {
      #expect(Set(command.properties.keys).isSubset(of: ["file", "line", "title"]))
    }
    // What GitHub decodes is the text in its visible form, exactly.
    let failed = try #require(commands.first)
    // A property is on one line: its line feeds too are in the visible notation; a title past
    // 255 characters is that, cut, with an ellipsis.
    let title = TerminalText.escaped("suite \(text): class \(text) · failed \(text)")
    let shown = try #require(failed.properties["title"])
    #expect(
      shown == title
        || (shown.hasSuffix("…") && shown.utf16.count == 255
          && title.unicodeScalars.starts(with: shown.unicodeScalars.dropLast())),
      "\(shown.debugDescription)")
    #expect(failed.properties["file"] == TerminalText.escaped("Sources/\(text).swift"))
    #expect(failed.properties["line"] == "7")
    #expect(
      failed.data == RunnerReading.visible(["message \(text)", "", "evidence", text, "end"]))
    #expect(commands.last?.data == RunnerReading.visible(["summary " + text]))
    #expect(commands.last?.properties["title"] == TerminalText.escaped("title " + text))
  }

  @Test("no terminal control reaches the output but the line feeds that end its lines")
  func noTerminalControls() {
    let text = String(String.UnicodeScalarView(EscaperTests.terminalControls))
    let output = GitHubWorkflowCommands.annotations(CIReportFixtures.report(holding: text))
    let controls = Set(EscaperTests.terminalControls)
    let found = output.unicodeScalars.filter { controls.contains($0) && $0 != "\n" }
    #expect(found.isEmpty, "\(found.map { String($0.value, radix: 16) })")
    #expect(output.unicodeScalars.count { $0 == "\n" } == 3)
  }

  @Test("a message over 4,096 characters is cut with a marker; a title over 255 with an ellipsis")
  func limits() throws {
    let long = String(repeating: "é👩‍👩‍👧 ", count: 2_000)
    let report = CIReport(
      title: long, summary: "s",
      checks: [
        CICheck(
          suite: "s", className: "c", name: long, outcome: .failed(message: "m"), evidence: [long],
          site: nil)
      ], markdownSummary: "")
    let commands = RunnerReading.lines(GitHubWorkflowCommands.annotations(report))
      .compactMap(RunnerReading.command)
    let error = try #require(commands.first)
    #expect(error.data.utf16.count <= 4_096)
    #expect(error.data.utf16.count > 4_000)
    #expect(error.data.hasSuffix("\n… (cut: GitHub keeps 4,096 characters of an annotation)"))
    #expect(error.data.hasPrefix("m\n\né"))
    let title = try #require(error.properties["title"])
    #expect(title.utf16.count <= 255)
    #expect(title.hasSuffix("…"))
    #expect(commands.last?.properties["title"]?.utf16.count ?? 0 <= 255)
    // A short text is never cut.
    let short = RunnerReading.lines(
      GitHubWorkflowCommands.annotations(CIReportFixtures.representative)
    ).compactMap(RunnerReading.command)
    #expect(
      short.allSatisfy {
        !$0.data.contains("(cut:") && $0.properties["title"]?.hasSuffix("…") != true
      })
  }

  @Test("past 10 annotations of a kind, the notice says how many more are only in the log")
  func annotationsPerKind() throws {
    func report(errors: Int, warnings: Int) -> CIReport {
      let checks =
        (0..<errors).map {
          CICheck(
            suite: "s", className: "c", name: "e\($0)", outcome: .failed(message: "m"), evidence: []
          )
        }
        + (0..<warnings).map {
          CICheck(
            suite: "s", className: "c", name: "w\($0)", outcome: .advisory(message: "m"),
            evidence: [])
        }
      return CIReport(title: "t", summary: "sum", checks: checks, markdownSummary: "")
    }
    let atLimit = RunnerReading.lines(
      GitHubWorkflowCommands.annotations(report(errors: 10, warnings: 10)))
    #expect(atLimit.count == 21)
    #expect(atLimit.last == "::notice title=t::sum")
    let over = RunnerReading.lines(
      GitHubWorkflowCommands.annotations(report(errors: 13, warnings: 11)))
    #expect(over.count == 25)
    #expect(
      over.last
        == "::notice title=t::sum%0AGitHub shows 10 annotations of each kind per step: "
        + "4 more are in this log and in the job summary.")
  }

  @Test("a site without a file gives no file= or line=; a line of 0 or less gives no line=")
  func siteProperties() throws {
    func firstLine(_ site: SourceSite?) -> String {
      let report = CIReport(
        title: "t", summary: "s",
        checks: [
          CICheck(
            suite: "s", className: "c", name: "n", outcome: .failed(message: "m"), evidence: [],
            site: site)
        ],
        markdownSummary: "")
      return RunnerReading.lines(GitHubWorkflowCommands.annotations(report))[0]
    }
    #expect(firstLine(nil) == "::error title=s%3A c · n::m")
    #expect(firstLine(SourceSite(file: "", line: 3)) == "::error title=s%3A c · n::m")
    #expect(
      firstLine(SourceSite(file: "A.swift", line: 0)) == "::error file=A.swift,title=s%3A c · n::m")
    #expect(
      firstLine(SourceSite(file: "A,b.swift", line: 9))
        == "::error file=A%2Cb.swift,line=9,title=s%3A c · n::m")
  }

  @Test(
    "a recorded site reads as file and line; anything else is all file",
    arguments: [
      ("App/CheckoutView.swift:42", "App/CheckoutView.swift", 42 as Int?),
      ("App/A.swift", "App/A.swift", nil),
      ("App/A.swift:", "App/A.swift:", nil),
      ("App/A.swift:0", "App/A.swift:0", nil),
      ("App/A.swift:-3", "App/A.swift:-3", nil),
      ("App/A.swift:1234567890", "App/A.swift:1234567890", nil),
      (":12", ":12", nil),
      ("C:\\x.swift:7", "C:\\x.swift", 7),
      ("a:b:c٣", "a:b:c٣", nil),
    ])
  func recordedSite(recorded: String, file: String, line: Int?) {
    #expect(SourceSite(recorded: recorded) == SourceSite(file: file, line: line))
  }
}
