import Foundation
import SleeveTestSupport
import Testing

/// A test run that skipped proofs for want of a tool ends by naming the tools and the one
/// command that installs them, once; a run that lacked nothing prints nothing more.
@Suite("Skipped proofs are named at the end of the run")
struct ProofsClosingLineTests {
  /// Runs this test binary's `filter` tests in a child process with `PATH` and no
  /// `SLEEVE_REQUIRE_PROOFS`: its exit status and output (standard output and error together).
  static func runTests(filter: String, path: String) async throws -> (Int32, String) {
    var environment = ProcessInfo.processInfo.environment
    environment["SLEEVE_REQUIRE_PROOFS"] = nil
    environment["PATH"] = path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle.nullDevice
    return try await OffThePool.run {
      try process.run()
      let data = output.fileHandleForReading.readDataToEndOfFile()
      process.waitForExit()
      return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
  }

  /// The fish completion test: small, and gated on fish alone.
  static let fishTest = "CompletionTests/fishCompletes"

  @Test("a run without fish ends, after the runner's last line, naming fish and its apt-get line")
  func missingToolIsNamedLast() async throws {
    let empty = TemporaryDirectory()  // a PATH with no fish (and nothing else)
    let (status, output) = try await Self.runTests(filter: Self.fishTest, path: empty.url.path)
    #expect(status == 0, "\(output)")
    let lines = output.split(separator: "\n").map(String.init)
    let summary = try #require(
      lines.lastIndex { $0.contains("Test run with") }, "no runner summary: \(output)")
    #expect(output.contains("skipped"), "the fish test ran: \(output)")
    #expect(
      Array(lines[(summary + 1)...]) == [
        "Proofs skipped for want of: fish (SLEEVE_REQUIRE_PROOFS=1 runs them, failing).",
        "Install them (from the package root): sudo apt-get install -y fish",
      ], "\(output)")
    #expect(output.components(separatedBy: "for want of").count == 2, "printed more than once")
  }

  @Test(
    "a run with every tool it needs prints no closing line",
    .enabled(if: Proofs.run(needs: .program("fish")), "needs Debian's fish package"))
  func nothingMissingPrintsNothing() async throws {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let (status, output) = try await Self.runTests(filter: Self.fishTest, path: path)
    #expect(status == 0, "\(output)")
    #expect(output.contains("passed"), "\(output)")
    #expect(!output.contains("for want of"), "\(output)")
    let last = output.split(separator: "\n").last.map(String.init) ?? ""
    #expect(last.contains("Test run with"), "\(output)")
  }

  @Test("the closing lines list each tool once, Debian packages in one apt-get line, pip once")
  func closingLines() throws {
    let needs = Set(
      [
        ProofTool("zsh", install: .debian("zsh"), isAvailable: false),
        ProofTool("xmllint", install: .debian("libxml2-utils"), isAvailable: false),
        ProofTool("chromium", install: .debian("chromium"), isAvailable: false),
        ProofTool("duckdb", install: .python, isAvailable: false),
        ProofTool("rotel", install: .python, isAvailable: false),
        ProofTool("zsh", install: .debian("zsh"), isAvailable: false),
        ProofTool("mount", install: .permission("needs permission to mount"), isAvailable: false),
      ].map(\.need))
    let text = try #require(Proofs.closingLines(for: needs, required: false))
    #expect(
      text == """
        Proofs skipped for want of: chromium, duckdb, mount, rotel, xmllint, zsh \
        (SLEEVE_REQUIRE_PROOFS=1 runs them, failing).
        Install them (from the package root): sudo apt-get install -y chromium libxml2-utils \
        zsh && python3 -m pip install -r scripts/requirements-test.txt
        mount: needs permission to mount

        """)
    #expect(Proofs.closingLines(for: [], required: false) == nil)
    let required = try #require(Proofs.closingLines(for: needs, required: true))
    #expect(required.hasPrefix("Proofs failed for want of: chromium,"), "\(required)")
  }
}
