import Foundation
import SleeveTestSupport
import Testing

@testable import SleeveCLI

@Suite("sleeve changes")
struct ChangesCommandTests {
  @Test("on demo --history it finds charge-card's slowdown at the commit that merged it")
  func findsTheDemoSlowdown() async throws {
    let (path, out) = await RecordedHistory.shared.recorded()
    #expect(out.contains(" changes --db \(path) --branch main\n"), "\(out)")
    let table = await CLIRunner.run(["changes", "--db", path, "--branch", "main", "--wide"])
    #expect(table.exit == 0, "\(table.error)")
    let lines = table.out.split(separator: "\n").map(String.init)
    #expect(
      lines.first?.hasPrefix("1 change (1 new in the last 10 commits) in ") == true, "\(table.out)")
    #expect(lines.contains { $0.hasPrefix("Method: E-divisive means (Matteson and James 2014)") })
    let row = try #require(lines.first { $0.hasPrefix("checkout.pay/charge-card") }, "\(table.out)")
    #expect(row.contains(" p50 ") && row.contains(DemoHistory.slowdownCommit), "\(row)")
    #expect(row.contains(" 6f708192a3b4 "), "the commit before: \(row)")

    let json = await CLIRunner.run(
      ["changes", "--db", path, "--branch", "main", "--format", "json"])
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
    let changes = try #require(document["changes"] as? [[String: Any]])
    let change = try #require(changes.first)
    #expect(changes.count == 1)
    #expect(change["firstCommit"] as? String == DemoHistory.slowdownCommit)
    #expect(change["handler"] as? String == "charge-card")
    #expect(change["control"] as? String == "checkout.pay")
    let relative = try #require(change["relativeChange"] as? Double)
    // The demo's charge work goes from scale 2 to 3: 50% more work, about +41% at the median.
    #expect(relative > 0.3 && relative < 0.6, "\(relative)")
    let before = try #require(change["before"] as? [String: Any])
    let after = try #require(change["after"] as? [String: Any])
    #expect(before["commits"] as? Int == 6 && after["commits"] as? Int == 4)
    #expect((change["pValue"] as? Double ?? 1) < 0.001)
    #expect((document["commits"] as? [String])?.count == 10)
  }

  @Test("--format github warns for a new change at the registration site, and not for an old one")
  func githubWarnsForNewChanges() async throws {
    let (path, _) = await RecordedHistory.shared.recorded()
    let directory = TemporaryDirectory()
    let summary = directory.path("summary.md")
    #expect(FileManager.default.createFile(atPath: summary, contents: nil))
    let environment = ["GITHUB_STEP_SUMMARY": summary]
    let new = await CLIRunner.run(
      ["changes", "--db", path, "--branch", "main", "--format", "github"],
      environment: environment)
    #expect(new.exit == 0, "\(new.error)")
    let warnings = new.out.split(separator: "\n").filter { $0.hasPrefix("::warning ") }
    #expect(warnings.count == 1, "\(new.out)")
    #expect(
      warnings.first?.hasPrefix(
        "::warning file=Sources/SleeveCLI/Demo/CheckoutDemo.swift,line=") == true, "\(new.out)")
    #expect(warnings.first?.contains("p50 changed +") == true, "\(new.out)")
    let written = try String(contentsOfFile: summary, encoding: .utf8)
    #expect(written.hasPrefix("### sleeve changes\n\n**1 change (1 new"), "\(written)")
    // Four commits have run since the slowdown: with --new-within 3 it is not new.
    let old = await CLIRunner.run(
      ["changes", "--db", path, "--branch", "main", "--format", "github", "--new-within", "3"])
    #expect(old.exit == 0)
    #expect(!old.out.contains("::warning"), "\(old.out)")
  }

  @Test("no matching session exits 66; a wrong --metric or --max-p exits 64 with one line")
  func refusals() async throws {
    let (path, _) = await RecordedHistory.shared.recorded()
    let none = await CLIRunner.run(["changes", "--db", path, "--branch", "no-such-branch"])
    #expect(none.exit == 66, "\(none.error)")
    for arguments in [
      ["--metric", "p42"], ["--metric", "p50,"], ["--max-p", "0"], ["--max-p", "1"],
      ["--window", "1"], ["--window", "1001"], ["--min-commits", "0"], ["--new-within", "-3"],
    ] {
      let wrong = await CLIRunner.run(["changes", "--db", path] + arguments)
      #expect(wrong.exit == 64, "\(arguments): \(wrong.error)")
      let first = wrong.error.split(separator: "\n").first.map(String.init) ?? ""
      #expect(
        first.hasPrefix("Error: The value '\(arguments[1])' is invalid for '\(arguments[0]) <"),
        "\(arguments): \(wrong.error)")
    }
    let listed = await CLIRunner.run(
      ["changes", "--db", path, "--metric", "p99,p50,p99", "--format", "json"])
    #expect(listed.exit == 0)
    #expect(
      listed.out.contains("\"metrics\": [\n      \"p99\",\n      \"p50\"\n    ]"),
      "\(listed.out.prefix(800))")
  }

  @Test(
    "diff and check --baseline 'branch=main,since=change' judge charge-card against main's new level"
  )
  func sinceChange() async throws {
    let (path, _) = await RecordedHistory.shared.recorded()
    let note =
      "Note: checkout.pay/charge-card: since its p50 change at commit \(DemoHistory.slowdownCommit) "
      + "(8 sessions)\n"
    let since = await CLIRunner.run(
      ["diff", "--db", path, "--baseline", "branch=main,since=change", "--wide"])
    #expect(since.exit == 0)
    #expect(since.error.contains(note), "\(since.error)")
    let whole = await CLIRunner.run(["diff", "--db", path, "--baseline", "branch=main", "--wide"])
    func baseN(_ out: String) -> Int? {
      out.split(separator: "\n").first {
        $0.hasPrefix("regressed") && $0.contains("checkout.pay/charge-card")
      }
      .flatMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(2).first }
      .flatMap { Int($0) }
    }
    // 8 sessions since the change against all 14 of main: fewer invocations in the baseline.
    let sinceN = try #require(baseN(since.out), "\(since.out)")
    let wholeN = try #require(baseN(whole.out), "\(whole.out)")
    #expect(sinceN < wholeN * 2 / 3, "\(sinceN) against \(wholeN)")
    let check = await CLIRunner.run(
      ["check", "--db", path, "--baseline", "branch=main,since=change", "--format", "json"])
    #expect(check.exit == 1, "the branch's regression still rolls back: \(check.error)")
    #expect(check.error.contains(note))
    // Grouped by control there is no handler's change to start from.
    let control = await CLIRunner.run(
      ["diff", "--db", path, "--baseline", "branch=main,since=change", "--by", "control"])
    #expect(control.exit == 64)
    #expect(control.error.hasPrefix("Error: since=change starts each handler's baseline"))
    let candidate = await CLIRunner.run(
      ["diff", "--db", path, "--baseline", "branch=main", "--candidate", "since=change"])
    #expect(candidate.exit == 64 && candidate.error.contains("use it in --baseline"))
    #expect(since.out.contains("since=change: each handler is judged against the baseline's"))
    let twice = await CLIRunner.run(
      ["diff", "--db", path, "--baseline", "branch=main,since=change,since=2h"])
    #expect(twice.exit == 64 && twice.error.contains("'since' is given twice"), "\(twice.error)")
  }

  @Test("diff names the change point inside its baseline, and the HTML trend chart marks it")
  func diffAndTrendMarkTheChange() async throws {
    let (path, _) = await RecordedHistory.shared.recorded()
    let note =
      "Change point in the baseline: checkout.pay/charge-card p50 +41.42% at commit "
      + "\(DemoHistory.slowdownCommit) (25.3 µs → 35.7 µs; 6 commits before, 4 after)."
    let table = await CLIRunner.run(["diff", "--db", path, "--baseline", "branch=main"])
    #expect(table.out.contains(note + "\n"), "\(table.out.prefix(800))")
    #expect(table.out.contains("add since=change to --baseline"))
    let since = await CLIRunner.run(
      ["diff", "--db", path, "--baseline", "branch=main,since=change", "--format", "markdown"])
    #expect(since.out.contains(note + "\n\n"), "\(since.out.prefix(800))")
    #expect(!since.out.contains("add since=change"), "already given")
    let json = await CLIRunner.run(
      ["diff", "--db", path, "--baseline", "branch=main", "--format", "json"])
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
    let changes = try #require(document["baselineChanges"] as? [[String: Any]])
    #expect(changes.map { $0["firstCommit"] as? String } == [DemoHistory.slowdownCommit])
    // The last 4 sessions hold one level: nothing changed inside that baseline.
    let recent = await CLIRunner.run(
      ["diff", "--db", path, "--baseline", "branch=main,last=4", "--format", "json"])
    #expect(
      recent.out.contains("\"baselineChanges\": [\n\n  ]")
        || recent.out.contains("\"baselineChanges\": []"), "\(recent.out.suffix(300))")

    let report = await CLIRunner.run(
      ["report", "--db", path, "--baseline", "branch=main", "--format", "html"])
    #expect(report.exit == 0 || report.exit == 1, "\(report.error)")
    func chart(_ title: String) throws -> String {
      let start = try #require(report.out.range(of: "aria-label=\"\(title): error rate"))
      let end = try #require(report.out[start.upperBound...].range(of: "</svg>"))
      return String(report.out[start.lowerBound..<end.upperBound])
    }
    let charge = try chart("checkout.pay/charge-card")
    // charge-card's p99 moved at the slowdown (399.9 µs to 600.0 µs): one rule, two levels.
    #expect(charge.components(separatedBy: "<line class=\"change\"").count - 1 == 1, "\(charge)")
    #expect(charge.components(separatedBy: "<line class=\"level\"").count - 1 == 2)
    #expect(
      charge.contains("p99 change at commit \(DemoHistory.slowdownCommit): 399.9 µs → 600.0 µs"))
    let steady = try chart("checkout.pay/submit-order")
    #expect(!steady.contains("class=\"change\""), "submit-order never changed on main")

    // With since=change each handler's own baseline is grey; the sessions before its change pale.
    let perHandler = await CLIRunner.run(
      ["report", "--db", path, "--baseline", "branch=main,since=change", "--format", "html"])
    let html = perHandler.out
    func bars(_ title: String, _ kind: String) throws -> Int {
      let start = try #require(html.range(of: "aria-label=\"\(title): error rate"))
      let end = try #require(html[start.upperBound...].range(of: "</svg>"))
      return html[start.lowerBound..<end.upperBound]
        .components(separatedBy: "<rect class=\"\(kind)\"").count - 1
    }
    #expect(try bars("checkout.pay/charge-card", "baseline") == 8)
    #expect(try bars("checkout.pay/charge-card", "before-change") == 6)
    #expect(try bars("checkout.pay/submit-order", "baseline") == 14)
    #expect(try bars("checkout.pay/submit-order", "before-change") == 0)
  }
}

@Suite("The change-point guide")
struct ChangesGuideTests {
  @Test("the guide's demo table is what sleeve changes prints on demo --history")
  func guideShowsTheRealAnswer() async throws {
    let (path, _) = await RecordedHistory.shared.recorded()
    let page = try ReadmeSnippet.text(of: "docs/guide/changes.md")
    let shown = try #require(
      ReadmeSnippet.between("<!-- changes-demo:begin -->", "<!-- changes-demo:end -->", in: page))
    let run = await CLIRunner.run(
      ["changes", "--db", path, "--branch", "main", "--format", "markdown"])
    #expect(run.exit == 0)
    #expect(
      shown.joined(separator: "\n") + "\n" == run.out.trimmingTrailingNewlines + "\n", "\(run.out)")
    // Earlier changes fold under <details>; new ones stay in the table.
    let folded = await CLIRunner.run(
      ["changes", "--db", path, "--branch", "main", "--format", "markdown", "--new-within", "2"])
    #expect(folded.out.contains("<details><summary>1 earlier change</summary>"), "\(folded.out)")
    #expect(!run.out.contains("<details>"))
  }
}

@Suite("sleeve changes on hostile recorded text")
struct ChangesHostileTextTests {
  @Test(
    "commit ids and handler names with escapes and endless combining marks stay inert and bounded")
  func hostileCommitsAndNames() async throws {
    let fixture = try FixtureDatabase()
    let marks = String(repeating: "\u{301}", count: 5_000)
    let handler = "pay\u{1B}[31m\nnow" + marks
    var random = SeededGenerator(seed: 0x0057_11E)
    for id in Int64(1)...14 {
      let commit = id <= 7 ? "c\(id)" : "\u{1B}]0;pwn\u{07}\(id)" + marks
      try fixture.session(id, name: "run", startedSeconds: 1_700_000_000 + id * 60)
      try fixture.context(session: id, commit: commit, branch: "main")
      try fixture.handler(
        session: id, number: 1, name: handler, control: "Checkout\u{1B}[2J", identifier: handler,
        site: "Checkout.swift:1\u{1B}[0m")
      let samples = (0..<200).map { _ in
        FixtureDatabase.Sample(
          Int64(
            Double(id <= 7 ? 1_000_000 : 2_000_000) * Double.random(in: 0.9...1.1, using: &random)),
          failed: false)
      }
      try fixture.samples(session: id, handler: 1, samples)
    }
    for format in ["table", "json", "csv", "markdown", "github", "junit"] {
      let run = await CLIRunner.run(
        ["changes", "--db", fixture.path, "--format", format, "--metric", "p50"],
        environment: ["GITHUB_STEP_SUMMARY": ""])
      #expect(run.exit == 0, "\(format): \(run.error)")
      // CSV is data: values as recorded, quoted by RFC 4180 (CSVText); every other format
      // escapes them for where it is shown.
      let scalars = run.out.unicodeScalars
      #expect(
        format == "csv" || (!scalars.contains("\u{1B}") && !scalars.contains("\u{07}")),
        "\(format)")
      #expect(run.out.utf8.count < 400_000, "\(format): \(run.out.utf8.count) bytes")
      #expect(run.out.contains("p50"), "\(format): the change is listed")
    }
  }
}

extension String {
  /// This text without the line breaks it ends with.
  fileprivate var trimmingTrailingNewlines: String {
    var text = Substring(self)
    while text.last == "\n" { text = text.dropLast() }
    return String(text)
  }
}
