import Testing

@testable import SleeveCLI

/// `CICheck.Outcome.notice` (a lint note): worth knowing, never gating, in both CI renderers.
@Suite("CI notices")
struct CINoticeTests {
  static func report(notices: Int) -> CIReport {
    CIReport(
      title: "t", summary: "s",
      checks: (0..<notices).map { number in
        CICheck(
          suite: "sleeve lint", className: "C", name: "n\(number)",
          outcome: .notice(message: "note <\(number)>"), evidence: ["e1", "e2"],
          site: SourceSite(file: "M/F.swift", line: 3))
      }, markdownSummary: "")
  }

  @Test(
    "a notice is a passing JUnit testcase: no failure, not skipped, its message then its evidence in system-out"
  )
  func junitNotice() {
    let xml = JUnitXML.render(Self.report(notices: 1))
    #expect(xml.contains("tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"0\""))
    #expect(!xml.contains("<failure") && !xml.contains("<skipped"))
    #expect(
      xml.contains(
        "    <testcase classname=\"C\" name=\"n0\" time=\"0\" file=\"M/F.swift\" line=\"3\">\n"
          + "      <system-out>note &lt;0&gt;\ne1\ne2</system-out>\n    </testcase>\n"))
  }

  @Test(
    "a notice is a GitHub ::notice at its site, with the title and the message then the evidence")
  func githubNotice() {
    let out = GitHubWorkflowCommands.annotations(Self.report(notices: 1))
    #expect(
      out.hasPrefix(
        "::notice file=M/F.swift,line=3,title=sleeve lint%3A C · n0::note <0>%0A%0Ae1%0Ae2\n"))
    #expect(out.hasSuffix("::notice title=t::s\n"))
  }

  @Test(
    "past ten notices, the summary notice counts the ones GitHub does not show, itself included",
    arguments: [(8, nil), (9, 0), (10, 1), (12, 3)] as [(Int, Int?)])
  func hiddenNotices(notices: Int, hidden: Int?) {
    let out = GitHubWorkflowCommands.annotations(Self.report(notices: notices))
    let last = out.split(separator: "\n").last.map(String.init) ?? ""
    if let hidden, hidden > 0 {
      #expect(last.contains("%0AGitHub shows 10 annotations of each kind per step: \(hidden) more"))
    } else {
      #expect(last == "::notice title=t::s")
    }
  }
}
