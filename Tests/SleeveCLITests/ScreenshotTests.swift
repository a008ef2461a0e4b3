import Foundation
import SleeveTestSupport
import Testing

/// Where Chromium is, if it is installed (Debian's `chromium` package).
enum Chromium {
  static var isInstalled: Bool {
    ["chromium", "chromium-browser"].contains { Proofs.executable($0) != nil }
  }
  /// Chromium, as a proof's need.
  static var tool: ProofTool {
    ProofTool("chromium", install: .debian("chromium"), isAvailable: isInstalled)
  }
}

@Suite("Report screenshot", .serialized)
struct ScreenshotTests {
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts/report-screenshot").path

  /// Runs scripts/report-screenshot (Chromium, seconds), awaiting its exit without holding a
  /// thread of the cooperative pool.
  func screenshot(_ html: String, to png: String) async throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [Self.script, html, png, "1280", "1400"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    await process.exited()
    return process.terminationStatus
  }

  @Test(
    "scripts/report-screenshot renders the HTML report to a PNG that is not blank",
    .enabled(if: Proofs.run(needs: Chromium.tool), "needs Debian's chromium package"))
  func reportRendersToAPicture() async throws {
    let fixture = try FixtureDatabase.standard()
    let directory = TemporaryDirectory()
    let html = directory.path("report.html")
    let blank = directory.path("blank.html")
    try "<!DOCTYPE html><html><body></body></html>".write(
      toFile: blank, atomically: true, encoding: .utf8)
    let report = await CLIRunner.run(
      ["report", "--db", fixture.path, "--session", "all", "--format", "html", "--out", html])
    #expect(report.exit == 0)
    #expect(try await screenshot(html, to: directory.path("report.png")) == 0)
    #expect(try await screenshot(blank, to: directory.path("blank.png")) == 0)
    let picture = try Data(contentsOf: URL(fileURLWithPath: directory.path("report.png")))
    let empty = try Data(contentsOf: URL(fileURLWithPath: directory.path("blank.png")))
    #expect(picture.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    // A blank page of the same size compresses to almost nothing; text and charts do not.
    #expect(picture.count > 4 * empty.count, "report \(picture.count) B, blank \(empty.count) B")
  }

  @Test("the script explains its usage and a missing file with documented codes")
  func scriptErrors() async throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [Self.script]
    process.standardError = FileHandle.nullDevice
    try process.run()
    await process.exited()
    #expect(process.terminationStatus == 64)
    let missing = try await screenshot("/nonexistent/report.html", to: "/tmp/never.png")
    #expect(missing == 66)
  }
}
