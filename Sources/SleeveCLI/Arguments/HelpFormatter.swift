/// Help texts in swift-argument-parser's layout: `OVERVIEW:`, `USAGE:`, `ARGUMENTS:`,
/// `OPTIONS:`, `SUBCOMMANDS:`, then Sleeve's `EXIT CODES:`.
enum HelpFormatter {
  /// Help for one command.
  static func help(for command: CommandSpec) -> String {
    var text = "OVERVIEW: \(command.abstract)\n"
    if let discussion = command.discussion { text += "\n\(discussion)\n" }
    text += "\nUSAGE: \(command.usage)\n"
    if !command.arguments.isEmpty {
      text += "\nARGUMENTS:\n"
      text += command.argumentPlaceholders.map { "  \($0)" }.joined(separator: "\n") + "\n"
    }
    text +=
      "\nOPTIONS:\n" + rows(command.options.filter(\.listedInHelp).map { ($0.label, $0.help) })
    return text
  }

  /// The top-level help.
  static func help(commands: [CommandSpec], shared: [OptionSpec]) -> String {
    var text = """
      OVERVIEW: Query recorded Sleeve sessions from the shell: error rates, latency
      percentiles, flag states, and a gate for CI.

      USAGE: sleeve [--db <path>] [--format <format>] <subcommand>

      OPTIONS:

      """
    text += rows(
      shared.map { ($0.label, $0.help) } + [
        ("--version", "Show the version."), ("-h, --help", "Show help information."),
      ])
    text += "\nSUBCOMMANDS:\n"
    text += rows(
      commands.filter(\.listedInHelp).map { ($0.name, $0.abstract) } + [
        ("help", "Show help for a subcommand.")
      ])
    text += "\n  See 'sleeve help <subcommand>' for detailed help.\n"
    text +=
      "\nEXIT CODES:\n" + rows(ExitCode.documented.map { (String($0.code.rawValue), $0.meaning) })
    return text
  }

  /// Two columns, the second aligned, as swift-argument-parser prints them.
  private static func rows(_ rows: [(String, String)]) -> String {
    let width = min((rows.map(\.0.count).max() ?? 0) + 2, 26)
    return rows.map { label, help in
      let padded = "  " + label
      if label.count + 2 > width {
        return padded + "\n" + String(repeating: " ", count: width + 2) + help
      }
      return padded + String(repeating: " ", count: width - label.count) + help
    }.joined(separator: "\n") + "\n"
  }
}
