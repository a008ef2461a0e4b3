import Testing

@testable import SleeveCLI

@Suite("Help texts")
struct HelpGoldenTests {
  /// Every command the top-level help lists: a new command has golden help from its start.
  static let commands: [String] = SleeveCLI.commands.compactMap { command in
    command.spec.listedInHelp ? command.spec.name : nil
  }

  @Test(
    "the top-level help matches its golden text and exits 0",
    arguments: [["--help"], ["-h"], ["help"], []])
  func topLevelHelp(arguments: [String]) async {
    let result = await CLIRunner.run(arguments)
    CLIRunner.updateGoldenIfAsked("help.txt", with: result.out)
    #expect(result.exit == 0)
    #expect(result.error.isEmpty)
    #expect(result.out == CLIRunner.golden("help.txt"))
  }

  @Test(
    "every command's help matches its golden text, however it is asked for", arguments: commands)
  func commandHelp(command: String) async {
    let viaFlag = await CLIRunner.run([command, "--help"])
    let viaHelp = await CLIRunner.run(["help", command])
    let takesDatabase =
      SleeveCLI.commands.first { $0.spec.name == command }?.spec
      .option(named: "db") != nil
    let viaShort = await CLIRunner.run(
      [command] + (takesDatabase ? ["--db", "x.sqlite"] : []) + ["-h"])
    CLIRunner.updateGoldenIfAsked("help-\(command).txt", with: viaFlag.out)
    #expect(viaFlag.exit == 0)
    #expect(viaFlag.out == CLIRunner.golden("help-\(command).txt"))
    #expect(viaHelp.out == viaFlag.out)
    #expect(viaShort.out == viaFlag.out)
  }

  @Test("--version prints the version")
  func version() async {
    let result = await CLIRunner.run(["--version"])
    #expect(result.exit == 0)
    #expect(result.out == SleeveCLI.version + "\n")
  }

  @Test("the top-level help documents every exit code")
  func helpDocumentsExitCodes() async {
    let help = await CLIRunner.run(["help"]).out
    for code in ["0 ", "1 ", "2 ", "64", "65", "66", "74", "75"] {
      #expect(help.contains("\n  \(code)"), "missing exit code \(code)")
    }
  }
}
