import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether every proof must run: `.ci/run` sets `SLEEVE_REQUIRE_PROOFS=1`, so a test whose tool
/// (Chromium, a Python module, permission to mount) is missing fails there instead of being
/// skipped. On a developer's machine without the tool, such a test is skipped, and says why;
/// and the test process ends by naming every tool that was missing and the one command that
/// installs them (`closingLines`), printed once, after the test runner's last line.
public enum Proofs {
  /// `true` when `SLEEVE_REQUIRE_PROOFS` is `1`.
  public static let areRequired =
    ProcessInfo.processInfo.environment["SLEEVE_REQUIRE_PROOFS"] == "1"

  /// Whether a test that needs `tools` runs: when all of them are there, and always under CI.
  /// The missing ones are kept for the closing lines, which the first of them schedules.
  public static func run(needs tools: [ProofTool]) -> Bool {
    let missing = tools.filter { !$0.isAvailable }
    guard !missing.isEmpty else { return true }
    let first = noted.withLock { noted in
      let first = noted.isEmpty
      noted.formUnion(missing.map(\.need))
      return first
    }
    // Registered once per process; the handler runs as the process exits (after the runner's
    // summary), on the thread that calls exit.
    if first { atexit { Proofs.printClosingLines() } }
    return areRequired
  }

  /// `run(needs:)` of the tools listed.
  public static func run(needs tools: ProofTool...) -> Bool { run(needs: tools) }

  /// The tools missing so far, and how each is installed.
  private static let noted = Mutex<Set<ProofTool.Need>>([])

  /// What the process prints as it ends when tools were missing: which, and the command that
  /// installs them (`nil` when none was missing).
  public static func closingLines(for needs: Set<ProofTool.Need>, required: Bool) -> String? {
    guard !needs.isEmpty else { return nil }
    let sorted = needs.sorted { ($0.name, $0.install) < ($1.name, $1.install) }
    let debian = Set(sorted.compactMap(\.debianPackage)).sorted()
    let python = sorted.contains { $0.install == .python }
    var commands: [String] = []
    if !debian.isEmpty {
      commands.append("sudo apt-get install -y " + debian.joined(separator: " "))
    }
    if python { commands.append("python3 -m pip install -r scripts/requirements-test.txt") }
    let names = sorted.map(\.name).joined(separator: ", ")
    var lines = [
      required
        ? "Proofs failed for want of: \(names) (SLEEVE_REQUIRE_PROOFS=1)."
        : "Proofs skipped for want of: \(names) (SLEEVE_REQUIRE_PROOFS=1 runs them, failing)."
    ]
    if !commands.isEmpty {
      lines.append("Install them (from the package root): " + commands.joined(separator: " && "))
    }
    for need in sorted {
      if case .permission(let what) = need.install { lines.append("\(need.name): \(what)") }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func printClosingLines() {
    let needs = noted.withLock { $0 }
    guard let text = closingLines(for: needs, required: areRequired) else { return }
    // After the runner's last line (whatever it left buffered is written first), on the
    // stream it writes to.
    fflush(nil)
    FileHandle.standardError.write(Data(("\n" + text).utf8))
  }

  /// The path of the program `name` in a directory of `PATH`, or `nil`: how the proofs find
  /// their tools, so a `PATH` without one is a machine without it.
  public static func executable(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for directory in path.split(separator: ":") where !directory.isEmpty {
      let candidate = directory + "/" + name
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }
}

/// A tool a proof needs, whether this machine has it, and how it is installed.
public struct ProofTool: Sendable {
  /// What is missing and how it is got; what the closing lines list.
  public struct Need: Sendable, Hashable {
    /// The tool's name, as the closing lines name it (`zsh`, `duckdb`).
    public let name: String
    /// How it is installed.
    public let install: Install

    /// The Debian package to install, when it is one.
    var debianPackage: String? {
      if case .debian(let package) = install { return package }
      return nil
    }
  }

  /// How a tool is installed.
  public enum Install: Sendable, Hashable, Comparable {
    /// A Debian package (`apt-get install`).
    case debian(String)
    /// A Python package pinned in scripts/requirements-test.txt.
    case python
    /// Nothing to install: what the machine must allow.
    case permission(String)
  }

  /// What is missing when it is.
  public let need: Need
  /// Whether this machine has it.
  public let isAvailable: Bool

  /// A tool named `name`, installed by `install`, available when `isAvailable`.
  public init(_ name: String, install: Install, isAvailable: Bool) {
    need = Need(name: name, install: install)
    self.isAvailable = isAvailable
  }

  /// The program `name` on `PATH`, from the Debian package `package` (by default its name).
  public static func program(_ name: String, package: String? = nil) -> ProofTool {
    ProofTool(
      name, install: .debian(package ?? name), isAvailable: Proofs.executable(name) != nil)
  }

  /// The Python module `module`, from the package `package` of scripts/requirements-test.txt.
  public static func pythonModule(_ module: String, package: String) -> ProofTool {
    ProofTool(package, install: .python, isAvailable: PythonModule.isInstalled(module))
  }

  /// python3 with its standard library (`scripts/otlp-test-server` and the Python checks).
  public static var python3: ProofTool {
    ProofTool("python3", install: .debian("python3"), isAvailable: LoopbackOTLPServer.canRun)
  }
}
