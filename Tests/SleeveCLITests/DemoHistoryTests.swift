import Foundation
import SleeveQuery
import SleeveTestSupport
import Testing

/// `sleeve demo --history`: a history whose regression, new failure type and flaky handler
/// the across-run commands find.
@Suite("demo --history", .serialized)
struct DemoHistoryTests {
  /// The history, recorded once for the test process (``RecordedHistory``: the gate page's
  /// `sleeve demo --history`), then copied into a fresh directory for each test, so a test
  /// that writes (quarantine) changes only its own.
  static func record() async -> (directory: TemporaryDirectory, path: String, out: String) {
    let (source, out) = await RecordedHistory.shared.recorded()
    let directory = TemporaryDirectory()
    let path = directory.path("history.sqlite")
    try? FileManager.default.copyItem(atPath: source, toPath: path)
    return (directory, path, out.replacingOccurrences(of: source, with: path))
  }

  static func rows(_ arguments: [String], path: String) async throws -> [String: [String: Any]] {
    let result = await CLIRunner.run(arguments + ["--db", path, "--format", "json"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any],
      "\(result.error)")
    let rows = try #require(object["rows"] as? [[String: Any]])
    return Dictionary(uniqueKeysWithValues: rows.map { ($0["handler"] as? String ?? "?", $0) })
  }

  @Test("the runs carry CI context and test identity: 14 on main across 10 commits, 1 on a branch")
  func context() async throws {
    let recorded = await Self.record()
    #expect(
      recorded.out.contains("sleeve diff --db \(recorded.path) --baseline 'branch=main,last=20'\n"))
    #expect(
      recorded.out.contains("sleeve check --db \(recorded.path) --baseline 'branch=main,last=20'\n")
    )
    var filter = QueryFilter()
    filter.session = .all
    let sessions = try QueryDatabase(path: recorded.path).sessions(matching: filter)
    #expect(sessions.count == 15)
    #expect(sessions.prefix(14).allSatisfy { $0.context.run.branch == "main" })
    #expect(Set(sessions.prefix(14).compactMap(\.context.run.commit)).count == 10)
    #expect(sessions.last?.context.run.branch == "feature/faster-checkout")
    #expect(sessions.last?.context.run.pullRequest == "42")
    #expect(sessions.allSatisfy { $0.context.testID == "CheckoutTests/checkoutSubmits()" })
    #expect(sessions.allSatisfy { $0.context.testResult == "passed" })
    let table = await CLIRunner.run([
      "sessions", "--db", recorded.path, "--branch", "main", "--last", "2", "--wide",
    ])
    let lines = table.out.split(separator: "\n")
    #expect(lines.first?.hasSuffix("branch  commit        test") == true, "\(table.out)")
    #expect(lines.count == 3)
    #expect(lines.last?.hasSuffix("main    e1f2a3b4c5d6  CheckoutTests/checkoutSubmits()") == true)
    let json = await CLIRunner.run(["sessions", "--db", recorded.path, "--format", "json"])
    #expect(json.out.contains("\"branch\": \"feature/faster-checkout\""))
    #expect(json.out.contains("\"testTags\": [\n          \"checkout\"\n        ]"))
  }

  // Failures and durations are both seeded (the demo's durations are simulated), so every
  // verdict here is the same on every machine and under any load.
  @Test(
    "diff finds the regression and the new failure type; every other handler of main is unchanged"
  )
  func diffFindsThem() async throws {
    let recorded = await Self.record()
    let rows = try await Self.rows(
      ["diff", "--baseline", "branch=main,last=20"], path: recorded.path)
    #expect(rows["charge-card"]?["verdict"] as? String == "regressed")
    #expect(rows["update-total"]?["verdict"] as? String == "regressed")
    for handler in [
      "validate-cart", "submit-order", "validate-promo", "fetch-shipping-quote", "track-purchase",
      "CancelRouter.dismiss",
    ] {
      #expect(rows[handler]?["verdict"] as? String == "unchanged", "\(handler)")
    }
    let kinds = rows["update-total"]?["newFailureTypes"] as? [[String: Any]]
    #expect(
      kinds?.first?["pattern"] as? String == "missing key 'total' in the cart response at offset #")
    let charge = rows["charge-card"]?["errorTest"] as? [String: Any]
    #expect((charge?["holm"] as? Double ?? 1) < 0.05)
    let slower = rows["charge-card"]?["latencyTest"] as? [String: Any]
    #expect((slower?["holm"] as? Double ?? 1) < 0.05, "charge-card is slower on the branch")
    for handler in ["validate-cart", "submit-order", "validate-promo", "fetch-shipping-quote"] {
      let test = rows[handler]?["errorTest"] as? [String: Any]
      #expect((test?["holm"] as? Double ?? 0) >= 0.05, "\(handler)")
    }
  }

  @Test(
    "check --baseline rolls the branch back (exit 1) for the error regression and the new failure type"
  )
  func checkRollsBack() async throws {
    let recorded = await Self.record()
    let result = await CLIRunner.run([
      "check", "--db", recorded.path, "--baseline", "branch=main,last=20", "--format", "json",
    ])
    #expect(result.exit == 1, "\(result.out)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    let flags = try #require(object["flags"] as? [[String: Any]])
    let checks =
      try #require(object["baseline"] as? [[String: Any]])
      + (object["checks"] as? [[String: Any]] ?? [])
      + flags.flatMap { $0["checks"] as? [[String: Any]] ?? [] }
    let breaches = Set(
      checks.filter { $0["verdict"] as? String == "breach" }.compactMap { check in
        (check["subject"] as? String).map { "\($0) \(check["metric"] as? String ?? "")" }
      })
    // Only the planted regression: the charge fails more and is slower, the total fails in a
    // new way; the flag's own thresholds (its 5 ms p99) and every other handler pass.
    #expect(
      breaches == [
        "checkout.pay/charge-card errorRateVersusBaseline",
        "checkout.pay/charge-card latencyVersusBaseline",
        "checkout.gift-wrap/update-total errorRateVersusBaseline",
        "checkout.gift-wrap/update-total newFailureTypes",
      ])
    #expect(flags.allSatisfy { $0["decision"] as? String == "promote" }, "\(flags)")
  }

  @Test(
    "check --session 1 promotes: on main the flag's new checkout never fails and its p99 is 0.8 ms")
  func checkOneMainRun() async throws {
    let recorded = await Self.record()
    let result = await CLIRunner.run([
      "check", "--db", recorded.path, "--session", "1", "--format", "json",
    ])
    #expect(result.exit == 0, "\(result.out)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    let flags = try #require(object["flags"] as? [[String: Any]])
    let checks = flags.flatMap { $0["checks"] as? [[String: Any]] ?? [] }
    let verdicts = Dictionary(
      uniqueKeysWithValues: checks.map {
        ($0["metric"] as? String ?? "?", $0["verdict"] as? String ?? "?")
      })
    #expect(verdicts == ["errorRate": "pass", "p99": "pass"], "\(checks)")
    let p99 = try #require(checks.first { $0["metric"] as? String == "p99" }?["value"] as? Double)
    // Simulated: submit-order's long tail is 2,000 units of 100 ns at scale 4 (0.8 ms).
    #expect(abs(p99 - 800_000) < 800_000 * 0.011, "\(p99)")
  }

  @Test("the HTML report's trend charts each handler per session, the baseline's sessions marked")
  func trendSection() async throws {
    let recorded = await Self.record()
    let result = await CLIRunner.run([
      "report", "--db", recorded.path, "--baseline", "branch=main,last=20", "--format", "html",
    ])
    #expect(result.exit == 0, "\(result.error)")
    let trend = try #require(result.out.range(of: "<h2>Trend</h2>"))
    let figures = result.out[trend.upperBound...].components(separatedBy: "<figure>").dropFirst()
    // 8 handlers ran on main and 7 more in the branch's visit: every one that failed, then
    // the most invoked, 12 in all.
    #expect(figures.count == 12, "one chart per handler, up to the cap")
    #expect(
      result.out.contains(
        "12 of 15 handlers: every one that failed or regressed, then the most invoked; 3 not drawn."
      ))
    #expect(figures.contains { $0.contains("checkout.postcode/look-up-address: error rate") })
    let charge = try #require(figures.first { $0.contains("checkout.pay/charge-card: error rate") })
    #expect(charge.components(separatedBy: "class=\"baseline\"").count - 1 == 14)
    #expect(charge.components(separatedBy: "class=\"candidate\"").count - 1 == 1)
    #expect(charge.contains("<title>session 15: n "))
    // One session: no trend to draw.
    let one = await CLIRunner.run(["report", "--db", recorded.path, "--format", "html"])
    #expect(!one.out.contains("<h2>Trend</h2>"))
  }

  @Test("flaky names its two shares apart and says which runs of which commit disagreed")
  func flakyNamesTheShares() async throws {
    let recorded = await Self.record()
    let table = await CLIRunner.run(["flaky", "--db", recorded.path, "--wide"])
    let header = try #require(table.out.split(separator: "\n").first { $0.hasPrefix("control") })
    #expect(header.contains("runs disagreed on") && header.contains("invocations failed"))
    #expect(!header.contains("flake rate") && !header.contains("error rate"), "\(header)")
    let row = try #require(
      table.out.split(separator: "\n").first { $0.contains("fetch-shipping-quote") })
    #expect(row.contains("2 of 4 commits (50.00%)"), "\(row)")
    let runs =
      #"commit [0-9a-f]{12} \(CheckoutTests/checkoutSubmits\(\)\): session \d+ failed, session \d+ passed"#
    #expect(row.range(of: runs, options: .regularExpression) != nil, "\(row)")
  }

  @Test("diff --format markdown names each side by branch and commits, not only session ids")
  func diffNamesTheSides() async throws {
    let recorded = await Self.record()
    let result = await CLIRunner.run([
      "diff", "--db", recorded.path, "--baseline", "branch=main", "--format", "markdown",
    ])
    #expect(result.exit == 0, "\(result.error)")
    #expect(
      result.out.contains(
        "Baseline: 14 sessions (1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 4 more) on branch main "
          + "at 10 commits ("),
      "\(result.out.prefix(600))")
    #expect(
      result.out.range(
        of: #"candidate: session 15 on branch feature/faster-checkout at commit [0-9a-f]{12}"#,
        options: .regularExpression) != nil, "\(result.out.prefix(600))")
  }

  @Test(
    "diff and check in --format junit validate against the schema, one testcase per check",
    .enabled(if: Proofs.run(needs: XMLLint.tool), "needs Debian's libxml2-utils (xmllint)"))
  func junit() async throws {
    let recorded = await Self.record()
    for (command, extra) in [("diff", [String]()), ("check", [])] {
      let result = await CLIRunner.run(
        [command, "--db", recorded.path, "--baseline", "branch=main", "--format", "junit"] + extra)
      let file = recorded.directory.path("\(command).xml")
      try result.out.write(toFile: file, atomically: true, encoding: .utf8)
      let validated = try await XMLLint.validate(file)
      #expect(validated.status == 0, "\(command): \(validated.output)")
      let failures = try await XMLLint.xpath("string(/testsuites/@failures)", in: file)
      #expect((Int(failures) ?? 0) >= 2, "\(command): the regression and the new failure type")
    }
    let flaky = await CLIRunner.run(["flaky", "--db", recorded.path, "--format", "junit"])
    let flakyFile = recorded.directory.path("flaky.xml")
    try flaky.out.write(toFile: flakyFile, atomically: true, encoding: .utf8)
    #expect(try await XMLLint.validate(flakyFile).status == 0)
    #expect(
      try await XMLLint.xpath("string(//testcase/skipped/@message)", in: flakyFile).hasPrefix(
        "flaky, runs disagreed on 2 of 4 commits (50.00%), invocations failed "))
    let diffXML = recorded.directory.path("diff.xml")
    // The 8 handlers of main, and the 7 only the branch's visit ran (verdict new).
    #expect(try await XMLLint.xpath("count(//testcase)", in: diffXML) == "15")
  }

  @Test(
    "--format github annotates each failed check at its registration site and appends the job summary"
  )
  func github() async throws {
    let recorded = await Self.record()
    let summary = recorded.directory.path("summary.md")
    let result = await CLIRunner.run(
      ["check", "--db", recorded.path, "--baseline", "branch=main", "--format", "github"],
      environment: ["GITHUB_STEP_SUMMARY": summary])
    #expect(result.exit == 1)
    let errors = result.out.split(separator: "\n").filter {
      $0.hasPrefix("::error ") && ($0.contains("VersusBaseline") || $0.contains("newFailureTypes"))
    }
    #expect(
      errors.contains {
        $0.contains("title=sleeve check%3A checkout.pay/charge-card · errorRateVersusBaseline")
      })
    // The site is found in the package: Sources/SleeveCLI/Demo/CheckoutDemo.swift, not the
    // recorded #fileID (SleeveCLI/CheckoutDemo.swift).
    #expect(
      errors.allSatisfy {
        $0.hasPrefix("::error file=Sources/SleeveCLI/Demo/CheckoutDemo.swift,line=")
      })
    let flaky = await CLIRunner.run(["flaky", "--db", recorded.path, "--format", "github"])
    #expect(flaky.exit == 0)
    #expect(
      flaky.out.hasPrefix(
        "::warning file=Sources/SleeveCLI/Demo/CheckoutDemo.swift,line=138,title=sleeve flaky%3A checkout.gift-wrap · fetch-shipping-quote::flaky"
      ))
    let written = try String(contentsOfFile: summary, encoding: .utf8)
    #expect(written.hasPrefix("### sleeve check\n\n**Session 15"))
  }

  @Test(
    "check does not count quarantined handlers, nor with --quarantine flaky the flaky ones, and says why"
  )
  func quarantine() async throws {
    let recorded = await Self.record()
    let add = await CLIRunner.run([
      "quarantine", "add", "charge-card", "--control", "checkout.pay", "--reason", "known, #12",
      "--db", recorded.path,
    ])
    #expect(add.exit == 0, "\(add.error)")
    func verdicts(_ extra: [String]) async throws -> [String: String] {
      let result = await CLIRunner.run(
        ["check", "--db", recorded.path, "--baseline", "branch=main", "--format", "json"] + extra)
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
      let checks = try #require(object["baseline"] as? [[String: Any]])
      var out: [String: String] = [:]
      for check in checks where check["metric"] as? String == "errorRateVersusBaseline" {
        out[check["subject"] as? String ?? "?"] =
          "\(check["verdict"] as? String ?? "") \(check["detail"] as? String ?? "")"
      }
      return out
    }
    let listed = try await verdicts([])
    #expect(
      listed["checkout.pay/charge-card"]
        == "advisory not counted: quarantined (quarantine list: known, #12)")
    #expect(listed["checkout.gift-wrap/fetch-shipping-quote"]?.hasPrefix("pass") == true)
    let flaky = try await verdicts(["--quarantine", "flaky"])
    #expect(
      flaky["checkout.gift-wrap/fetch-shipping-quote"]
        == "advisory not counted: quarantined (judged flaky by sleeve flaky, --quarantine flaky)")
    let none = try await verdicts(["--quarantine", "none"])
    #expect(none["checkout.pay/charge-card"]?.hasPrefix("breach") == true)
  }
}
