import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

/// `sleeve rollout` and the rollout options of `sleeve check`: what they record, and every bad
/// value refused with one line and its exit code.
@Suite("sleeve rollout and check's rollout options")
struct RolloutCommandTests {
  @Test("rollout records the share, says the unit it falls back to, and the provider's reading")
  func rolloutRecordsTheShare() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("r.sqlite")
    let result = await CLIRunner.run([
      "rollout", "new-checkout", "--percent", "12.5%", "--db", path, "--create", "--reason",
      "first stage", "--actor", "owner",
    ])
    #expect(result.exit == 0, "\(result.error)")
    #expect(
      result.out
        == "Flag 'new-checkout' is now rolling out to 12.5% of its units, by fire (the flag "
        + "declares no unit: each fire is drawn afresh) (first stage), by owner.\n")
    let ledger = FlagLedger(connection: try Connection(path: path, mode: .readOnly))
    let latest = try #require(try ledger.latestStates()["new-checkout"])
    #expect(latest.state == "rollingOut")
    #expect(latest.rolloutBasisPoints == 1_250)
    #expect(latest.reason == "first stage")
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
  }

  @Test(
    "a percentage that is not one from 0 to 100 with at most two decimals is a usage error",
    arguments: ["abc", "101", "-5", "0x19", "12.345", "", "1e1", " 5", "5 ", "nan", "inf", "1,5"])
  func badPercentIsRefused(percent: String) async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("r.sqlite")
    let result = await CLIRunner.run([
      "rollout", "f", "--percent", percent, "--db", path, "--create",
    ])
    #expect(result.exit == 64)
    #expect(result.error.hasPrefix("Error: The value '\(percent)' is invalid for '--percent <P>'"))
    #expect(result.error.split(separator: "\n").count <= 3)
    #expect(!FileManager.default.fileExists(atPath: path), "nothing is created on a usage error")
  }

  @Test("rollout without --percent, of an unknown flag, or of a bad key: 64, 66, 64")
  func otherRolloutErrors() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("r.sqlite")
    #expect(await CLIRunner.run(["rollout", "f", "--db", path, "--create"]).exit == 64)
    #expect(await CLIRunner.run(["enable", "g", "--db", path, "--create"]).exit == 0)
    #expect(await CLIRunner.run(["rollout", "f", "--percent", "5", "--db", path]).exit == 66)
    #expect(
      await CLIRunner.run(["rollout", "bad key", "--percent", "5", "--db", path, "--create"]).exit
        == 64)
  }

  @Test(
    "check refuses rollout options that contradict each other or name no check",
    arguments: [
      ["--sequential", "--fixed-horizon"], ["--advisory", "bogus"],
      ["--critical", "errorRate", "--advisory", "errorRate"], ["--advisory", "p99,p99"],
      ["--advisory", ""], ["--max-data-loss", "2"], ["--max-data-loss", "x"],
    ])
  func badCheckOptions(options: [String]) async throws {
    let (path, demoExit) = await RecordedDemo.shared.recorded()
    #expect(demoExit == 0)
    let result = await CLIRunner.run(["check", "--db", path] + options)
    #expect(result.exit == 64, "\(options): \(result.error)")
    #expect(result.error.hasPrefix("Error: "), "\(result.error)")
  }

  @Test("--advisory makes a breaching check report without deciding; --sequential names its method")
  func advisoryOptionChangesTheDecision() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("c.sqlite")
    #expect(try await CLIRunner.runChild(["demo", "--db", path, "--fires", "2000"]).exit == 0)
    let strict = await CLIRunner.run(["check", "--db", path, "--format", "json"])
    #expect(strict.exit == 1)
    let lenient = await CLIRunner.run([
      "check", "--db", path, "--format", "json", "--advisory",
      "errorRate,p99,errorRateVersusOff,latencyVersusOff",
    ])
    #expect(lenient.exit == 0, "\(lenient.out)")
    #expect(lenient.out.contains("\"detail\": \"advisory (would breach)\""))
    let sequential = await CLIRunner.run([
      "check", "--db", path, "--format", "json", "--sequential",
    ])
    #expect(sequential.out.contains("asymptotic confidence sequence"))
    #expect(!strict.out.contains("asymptotic confidence sequence"), "fixed-horizon by default")
  }
}
