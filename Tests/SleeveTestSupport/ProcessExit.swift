import Foundation

extension Process {
  /// How often `waitForExit()` looks.
  static let exitPollInterval: useconds_t = 2_000

  /// Waits until the process has exited, looking every 2 ms; then `terminationStatus` and
  /// `terminationReason` hold.
  ///
  /// Use this, never Foundation's `waitUntilExit()`: on Linux that spins its thread's run loop,
  /// which returns at once on a thread with no run-loop sources (every test thread), so it
  /// burns a core for as long as the child runs (60% of a core for a 2 s child, measured). On
  /// two cores a few such waits starved everything else in the suite. `scripts/lint` refuses
  /// `waitUntilExit` anywhere in the package.
  public func waitForExit() {
    while isRunning { usleep(Self.exitPollInterval) }
  }

  /// Waits until the process has exited, as `waitForExit()` does, but without holding a
  /// thread: the awaiting task sleeps 2 ms between looks, so the cooperative pool (two
  /// threads on two cores) keeps running the other tests while the child runs. Use this from
  /// every async test; `waitForExit()` only on a thread of the test's own.
  public func exited() async {
    while isRunning {
      do {
        try await Task.sleep(for: .microseconds(Int(Self.exitPollInterval)))
      } catch {
        usleep(Self.exitPollInterval)  // cancelled: a sleep that throws at once must not spin
      }
    }
  }

  /// `waitForExit()`, also reading the child's peak resident memory (`VmHWM` in
  /// `/proc/PID/status`) as it runs: the last value seen before it exited, in bytes. The peak
  /// of the last 2 ms can be missed, never a peak that took longer to reach.
  public func waitForExitReadingPeakMemory() -> Int {
    let status = "/proc/\(processIdentifier)/status"
    var peak = 0
    while isRunning {
      if let text = try? String(contentsOfFile: status, encoding: .utf8),
        let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kibibytes = Int(line.split(separator: " ").dropFirst().first ?? "")
      {
        peak = max(peak, kibibytes * 1024)
      }
      usleep(Self.exitPollInterval)
    }
    return peak
  }
}
