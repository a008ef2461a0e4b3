import Foundation
import Synchronization

/// The Python interpreter the proofs run their scripts with, and whether a module is importable
/// (the gate of the proofs that run a Python tool, `Proofs.run(needs:)`,
/// `ProofTool.pythonModule`), installed by `.ci/run` from `scripts/requirements-test.txt`.
public enum PythonModule {
  /// The interpreter `python3` on PATH resolves to, found once per process
  /// (`sys.executable`), so a launch runs it directly: a version manager's shim (pyenv's is a
  /// chain of shell scripts) costs a tenth of a second of CPU on every launch, and the suite
  /// launches Python about a hundred times. `/usr/bin/python3` when no `python3` answers, so
  /// launching fails and a gated proof says Python is missing.
  public static let interpreter: String = {
    let found = try? ChildProcess.run(
      "/usr/bin/env", ["python3", "-c", "import sys; print(sys.executable)"])
    guard let found, found.status == 0 else { return "/usr/bin/python3" }
    // The output holds standard error too: the path is the last line that is one.
    let lines = found.output.split(separator: "\n").map(String.init)
    return lines.last { $0.hasPrefix("/") } ?? "/usr/bin/python3"
  }()

  /// `true` when Python finds `module` (`importlib.util.find_spec`, which imports a dotted
  /// name's parents but not the module itself), asked once per module and process. The gates
  /// are evaluated on one thread before any test runs; importing pandas, duckdb, chdb and
  /// numpy there, and asking for `http.server` six times, held that thread for 2 to 3 s.
  /// A module found but broken fails its proof instead of skipping it.
  public static func isInstalled(_ module: String) -> Bool {
    if let known = installed.withLock({ $0[module] }) { return known }
    let found =
      (try? ChildProcess.run(
        interpreter,
        [
          "-c",
          "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec(sys.argv[1]) else 1)",
          module,
        ]
      ).status) == 0
    installed.withLock { $0[module] = found }
    return found
  }

  /// What `isInstalled` found, by module.
  private static let installed = Mutex<[String: Bool]>([:])
}
