/// Whether a Python module is importable: the gate of the proofs that run a Python tool
/// (`Proofs.run(needs:)`, `ProofTool.pythonModule`), installed by `.ci/run` from `scripts/requirements-test.txt`.
public enum PythonModule {
  /// `true` when `python3 -c "import module"` succeeds.
  public static func isInstalled(_ module: String) -> Bool {
    (try? ChildProcess.run("/usr/bin/env", ["python3", "-c", "import \(module)"]).status) == 0
  }
}
