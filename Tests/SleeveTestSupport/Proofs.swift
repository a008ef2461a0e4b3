import Foundation

/// Whether every proof must run: `.ci/run` sets `SLEEVE_REQUIRE_PROOFS=1`, so a test whose tool
/// (Chromium, a Python module, permission to mount) is missing fails there instead of being
/// skipped. On a developer's machine without the tool, such a test is skipped, and says why.
public enum Proofs {
  /// `true` when `SLEEVE_REQUIRE_PROOFS` is `1`.
  public static let areRequired =
    ProcessInfo.processInfo.environment["SLEEVE_REQUIRE_PROOFS"] == "1"

  /// Whether a test that needs a tool runs: when the tool is there, and always under CI.
  public static func run(when toolIsAvailable: Bool) -> Bool { toolIsAvailable || areRequired }
}
