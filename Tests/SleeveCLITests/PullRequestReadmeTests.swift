import Foundation
import SleeveTestSupport
import Testing

/// "Gate a pull request against main" (`docs/guide/gate.md`): its commands run as shown, with
/// the exits and findings its comments promise.
@Suite("Gate page: gate a pull request against main", .serialized)
struct PullRequestReadmeTests {
  @Test("every command of the section runs with the exit its comment states")
  func runsAsShown() async throws {
    let directory = TemporaryDirectory()
    let database = directory.path("history.sqlite")
    let environment = ["SLEEVE_DB": database]
    let commands = try ReadmeCommandLine.block(
      after: "## Gate a pull request against main\n", in: "docs/guide/gate.md")
    #expect(commands.count == 9)
    #expect(commands.first?.arguments == RecordedHistory.arguments)
    var outputs: [String: String] = [:]
    for (index, command) in commands.enumerated() {
      let result: CLIRunner.Result
      if index == 0 && command.arguments == RecordedHistory.arguments {
        // `sleeve demo --history` with SLEEVE_DB set, as recorded once for the test process
        // (the same arguments and environment): its exit is checked here, and the rest of
        // the section runs on a copy of the file it wrote.
        let (source, recorded) = await RecordedHistory.shared.run()
        try FileManager.default.copyItem(atPath: source, toPath: database)
        result = recorded
      } else {
        result = await CLIRunner.run(command.arguments, environment: environment)
      }
      #expect(result.exit == command.exit, "\(command.arguments): \(result.error)")
      if let file = command.redirect { outputs[file] = result.out }
      outputs[command.arguments.prefix(1).joined() + (command.redirect ?? "")] = result.out
    }
    #expect(outputs["comment.md"]?.contains("<details><summary>") == true)
    #expect(outputs["flaky"]?.contains("fetch-shipping-quote  flaky") == true)
    #expect(
      outputs["changes"]?.contains("checkout.pay/charge-card  p50     3f2a91c0d4e5") == true,
      "\(outputs["changes"] ?? "")")
    #expect(outputs["changes"]?.contains("+41.42%") == true)
    #expect(outputs["sleeve.xml"]?.hasPrefix("<?xml") == true)
    #expect(outputs["lint"]?.contains("handler-accumulation  checkout.save-address") == true)
  }
}
