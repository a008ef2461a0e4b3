import Foundation
import SleeveTestSupport
import Testing

/// The claim of `docs/guide/sharing.md` that DuckDB, ClickHouse (chdb) and pandas load the CSV
/// and NDJSON exports without options, run for real by `scripts/check-export-loads.py`.
@Suite("Export loads")
struct ExportLoadTests {
  static let engines = ["duckdb", "chdb", "pandas"]

  @Test(
    "DuckDB, ClickHouse and pandas read every row of the CSV and NDJSON exports alike",
    .enabled(
      if: Proofs.run(needs: engines.map { .pythonModule($0, package: $0) }),
      "needs duckdb, chdb and pandas (scripts/requirements-test.txt)"))
  func enginesAgree() async throws {
    let fixture = try FixtureDatabase.standard()
    let directory = TemporaryDirectory()
    var files: [String] = []
    for format in ["csv", "ndjson"] {
      let out = directory.path("sleeve.\(format)")
      let result = await CLIRunner.run([
        "export", "--db", fixture.path, "--session", "all", "--format", format, "--out", out,
      ])
      #expect(result.exit == 0, "\(result.error)")
      files.append(out)
    }
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("scripts/check-export-loads.py").path
    let checked = try await ChildProcess.runOffThePool(PythonModule.interpreter, [script] + files)
    #expect(checked.status == 0, "\(checked.output)")
    // The standard fixture: 29 invocations, 2 failed, 1,933 ns in all; six loads agree.
    let summaries = checked.output.split(separator: "\n").filter { $0.contains("rows, failed") }
    #expect(summaries.count == 6, "\(checked.output)")
    #expect(summaries.allSatisfy { $0.hasSuffix("= (29, 2, 1933)") }, "\(checked.output)")
  }
}
