import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

@testable import SleeveCLI

@Suite("sleeve export")
struct ExportTests {
  /// The file's lines, each parsed as a JSON object.
  private static func jsonLines(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { line in
      try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
  }

  @Test("ndjson: one object per outcome, every documented column, values joined correctly")
  func ndjsonRows() async throws {
    let fixture = try FixtureDatabase.standard()
    let result = await CLIRunner.run([
      "export", "--db", fixture.path, "--session", "all", "--format", "ndjson",
    ])
    #expect(result.exit == 0, "\(result.error)")
    let rows = try Self.jsonLines(result.out)
    #expect(rows.count == 29)
    for row in rows { #expect(Set(row.keys) == Set(ExportColumns.names)) }
    let failed = rows.filter { $0["status"] as? String == "failed" }
    #expect(failed.count == 2)
    #expect(failed.allSatisfy { $0["flag_key"] as? String == "new-pay" })
    #expect(failed.allSatisfy { $0["variant"] as? String == "on" })
    #expect(failed.allSatisfy { $0["handler"] as? String == "charge" })
    #expect(failed.map { $0["duration_ns"] as? Int } == [300, 500])
    let beta = rows.filter { $0["session_name"] as? String == "beta" }
    #expect(beta.count == 3)
    #expect(beta.allSatisfy { $0["control"] as? String == "checkout.pay" })
    #expect(beta.allSatisfy { $0["started_at"] as? String == "2023-11-14T22:15:00.000000Z" })
    #expect(
      rows.first { $0["status"] as? String == "skipped" }?["events"] as? String == "touchDown")
  }

  @Test("csv: a header of the documented columns, then the same rows as ndjson")
  func csvMatchesNDJSON() async throws {
    let fixture = try FixtureDatabase.standard()
    let csv = await CLIRunner.run([
      "export", "--db", fixture.path, "--session", "all", "--format", "csv",
    ])
    let ndjson = await CLIRunner.run([
      "export", "--db", fixture.path, "--session", "all", "--format", "ndjson",
    ])
    let lines = csv.out.split(separator: "\n").map(String.init)
    #expect(lines.first == ExportColumns.names.joined(separator: ","))
    let rows = try Self.jsonLines(ndjson.out)
    #expect(lines.count == rows.count + 1)
    for (line, row) in zip(lines.dropFirst(), rows) {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      #expect(fields.count == ExportColumns.names.count)
      for (name, field) in zip(ExportColumns.names, fields) {
        let value = row[name]
        let expected =
          value is NSNull
          ? "" : name == "is_async" ? ((value as? Bool) == true ? "true" : "false") : "\(value!)"
        #expect(field == expected, "\(name)")
      }
    }
  }

  @Test(
    "csv fields are quoted only when they must be",
    arguments: [
      ("plain", "plain"), ("a,b", "\"a,b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""),
      ("two\nlines", "\"two\nlines\""), (" padded", "\" padded\""), ("", ""),
      ("\"\u{301}", "\"\"\"\u{301}\""),
    ])
  func csvQuoting(value: String, expected: String) {
    var field = ""
    CSVText.appendField(value, formulas: .kept, to: &field)
    #expect(field == expected)
  }

  @Test("the export reference page lists exactly the exported columns, in order")
  func readmeDocumentsColumns() throws {
    let page = try ReadmeSnippet.text(of: "docs/guide/sharing.md")
    let table = try #require(
      ReadmeSnippet.between(
        "<!-- export-columns:begin -->", "<!-- export-columns:end -->", in: page))
    let documented = table.compactMap { line -> String? in
      guard line.hasPrefix("| `") else { return nil }
      return String(line.dropFirst(3).prefix { $0 != "`" })
    }
    #expect(documented == ExportColumns.names)
  }

  @Test("outcomes whose fire row is missing are exported, with empty fire columns")
  func orphanOutcomes() async throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.connection.execute("PRAGMA foreign_keys = OFF")
    try fixture.connection.execute(
      "DELETE FROM fires WHERE id = (SELECT fire_id FROM outcomes WHERE status = 1 LIMIT 1)")
    let result = await CLIRunner.run([
      "export", "--db", fixture.path, "--session", "1", "--format", "ndjson",
    ])
    let rows = try Self.jsonLines(result.out)
    #expect(rows.count == 26)
    let orphans = rows.filter { $0["control"] is NSNull }
    #expect(orphans.count == 1)
    #expect(orphans.first?["status"] as? String == "failed")
    #expect(orphans.first?["fire_number"] as? Int != nil)
  }

  @Test("--out writes the file only when complete; an unwritable path is exit 74, no file")
  func outFile() async throws {
    let fixture = try FixtureDatabase.standard()
    let directory = TemporaryDirectory()
    let out = directory.path("sleeve.csv")
    let written = await CLIRunner.run([
      "export", "--db", fixture.path, "--session", "all", "--format", "csv", "--out", out,
    ])
    #expect(written.exit == 0)
    #expect(written.out.isEmpty)
    #expect(written.error.contains("Exported 29 handler invocations"))
    #expect(try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").count == 30)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path("")) == ["sleeve.csv"])

    let missing = directory.path("no/such/dir/out.csv")
    let failed = await CLIRunner.run(["export", "--db", fixture.path, "--out", missing])
    #expect(failed.exit == 74)
    #expect(failed.error.hasPrefix("Error: cannot write '\(missing)'"))
    #expect(failed.error.split(separator: "\n").count == 1)

    let itself = await CLIRunner.run(["export", "--db", fixture.path, "--out", fixture.path])
    #expect(itself.exit == 64)
    #expect(itself.error.contains("which this command reads"))
    #expect(
      try SleeveDatabase.openForReading(path: fixture.path).scalarInt(
        "SELECT count(*) FROM outcomes") == 29)

    let badFormat = await CLIRunner.run(["export", "--db", fixture.path, "--format", "xml"])
    #expect(badFormat.exit == 64)
    #expect(badFormat.error.contains("otlp-json, otlp-metrics-json, ndjson, csv"))
  }

  @Test("a failed write to standard output is exit 74 with a message, not a silent cut")
  func standardOutputFailure() async throws {
    let fullDevice = "/dev/full"
    try #require(FileManager.default.isWritableFile(atPath: fullDevice))
    let fixture = try FixtureDatabase.standard()
    let result = try await ChildProcess.run(
      ChildProcess.sleeveBinary,
      ["export", "--db", fixture.path, "--session", "all", "--format", "csv"],
      standardOutput: FileHandle(forWritingAtPath: fullDevice))
    #expect(result.status == 74)
    #expect(
      result.output.hasPrefix("Error: cannot write 'standard output' (No space left on device)"))
  }

  @Test("a merged file exports byte for byte what its input exports for the same session")
  func exportSurvivesMerge() async throws {
    let input = try FixtureDatabase()
    try input.addBeta(as: 1)
    try input.addAlpha(as: 2)
    let directory = TemporaryDirectory()
    let merged = directory.path("merged.sqlite")
    let other = try FixtureDatabase()
    try other.session(1, name: "gamma", uuidNumber: 9)
    _ = await CLIRunner.run(["merge", merged, other.path, input.path])
    let uuid = "00000000-0000-0000-0000-000000000001"
    for format in ["otlp-json", "ndjson"] {
      let fromInput = await CLIRunner.run([
        "export", "--db", input.path, "--session", uuid, "--format", format,
      ])
      let fromMerged = await CLIRunner.run([
        "export", "--db", merged, "--session", uuid, "--format", format,
      ])
      #expect(!fromInput.out.isEmpty)
      #expect(fromInput.out == fromMerged.out, "\(format)")
    }
  }
}

@Suite("UTC timestamps for export")
struct UTCTimestampTests {
  @Test(
    "known instants",
    arguments: [
      (Int64(0), "1970-01-01T00:00:00.000000Z"),
      (Int64(-1), "1969-12-31T23:59:59.999999Z"),
      (Int64(951_782_400_000_000_000), "2000-02-29T00:00:00.000000Z"),
      (Int64(951_868_800_123_456_789), "2000-03-01T00:00:00.123456Z"),
      (Int64(1_709_251_199_999_999_000), "2024-02-29T23:59:59.999999Z"),
      (Int64(4_107_542_400_000_000_000), "2100-03-01T00:00:00.000000Z"),
    ])
  func knownInstants(nanoseconds: Int64, expected: String) {
    #expect(UTCTimestamp.iso8601(unixNanoseconds: nanoseconds) == expected)
  }

  @Test("agrees with Foundation's calendar on a day every 97 days for 200 years")
  func agreesWithFoundation() {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    for day in stride(from: Int64(-20_000), through: 60_000, by: 97) {
      let seconds = day * 86_400 + 45_296  // 12:34:56
      let parts = calendar.dateComponents(
        [.year, .month, .day], from: Date(timeIntervalSince1970: Double(seconds)))
      let expected =
        String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
        + "T12:34:56.000000Z"
      #expect(UTCTimestamp.iso8601(unixNanoseconds: seconds * 1_000_000_000) == expected)
    }
  }
}
