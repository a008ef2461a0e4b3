/// Splits a command line into a command and its options, with swift-argument-parser's
/// conventions: `--name value` or `--name=value`, `-h`/`--help` anywhere, `--` ends options.
enum ArgumentParser {
  /// The longest option value or argument accepted, in UTF-8 bytes (the longest path Linux
  /// takes): anything longer is a usage error, never a failure deep inside SQLite.
  static let maximumValueBytes = 4_096

  /// The options accepted before the subcommand (`sleeve --db x.sqlite sessions`).
  static let globalOptions = [SharedOptions.db.spec, SharedOptions.format.spec]
  /// What the command line asks for.
  enum Request: Equatable {
    /// Run `command` with these arguments.
    case run(command: String, ParsedArguments)
    /// Print help for `command` (`nil`: the top level).
    case help(command: String?)
    /// Print the version.
    case version
  }

  /// Parses `arguments` (without the program name) against `commands`.
  ///
  /// The global options (`--db`, `--format`) may also come before the command, when that
  /// command takes them; any other option there is a usage error.
  /// - Throws: `UsageError` for an unknown command or option, a missing value, or an
  ///   unexpected argument.
  static func parse(_ arguments: [String], commands: [CommandSpec]) throws -> Request {
    var leading = ParsedArguments()
    var index = 0
    let shared = globalOptions
    while index < arguments.count, arguments[index].hasPrefix("-") {
      let argument = arguments[index]
      switch argument {
      case "-h", "--help": return .help(command: nil)
      case "--version": return .version
      default:
        let (name, inline) = split(argument)
        guard let option = shared.first(where: { $0.name == name && $0.value != nil }) else {
          throw UsageError(
            "Unknown option '\(argument)'"
              + suggestion(name, among: shared.map(\.name), quoted: { "--" + $0 }))
        }
        leading.set(
          option,
          try value(for: option, inline: inline, arguments: arguments, index: &index, command: nil))
      }
      index += 1
    }
    guard index < arguments.count else { return .help(command: nil) }
    let name = arguments[index]
    if name == "help" {
      var topic = index + 1 < arguments.count ? arguments[index + 1] : nil
      if topic == "help" { topic = nil }  // `sleeve help help`: the overview, which explains it
      if let topic, !commands.contains(where: { $0.name == topic }) {
        throw unknownSubcommand(topic, commands: commands)
      }
      return .help(command: topic)
    }
    guard let command = commands.first(where: { $0.name == name }) else {
      throw unknownSubcommand(name, commands: commands)
    }
    var parsed = ParsedArguments()
    for (key, values) in leading.givenValues {
      guard let option = command.option(named: key) else {
        throw UsageError(
          "The option '--\(key)' does not apply to '\(command.name)'", command: command.name)
      }
      for value in values { parsed.set(option, value) }
    }
    index += 1
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        guard parsed.arguments.count < command.arguments.count || command.repeatsLastArgument
        else {
          throw UsageError("Unexpected argument '\(argument)'", command: command.name)
        }
        try requireBounded(argument, what: "argument", command: command.name)
        parsed.arguments.append(argument)
      } else if argument == "--" {
        optionsEnded = true
      } else {
        let option = try resolve(argument, in: command)
        if option.name == "help" { return .help(command: command.name) }
        if option.value == nil {
          parsed.insert(flag: option)
        } else {
          parsed.set(
            option,
            try value(
              for: option, inline: split(argument).inline, arguments: arguments, index: &index,
              command: command.name))
        }
      }
      index += 1
    }
    if parsed.arguments.count < command.arguments.count,
      !(command.argumentsOptional && parsed.arguments.isEmpty)
    {
      let missing = command.arguments[parsed.arguments.count]
      throw UsageError("Missing expected argument '<\(missing)>'", command: command.name)
    }
    return .run(command: command.name, parsed)
  }

  private static func resolve(_ argument: String, in command: CommandSpec) throws -> OptionSpec {
    if argument.hasPrefix("--") {
      let (name, inline) = split(argument)
      guard let option = command.option(named: name) else {
        throw UsageError(
          "Unknown option '\(argument.split(separator: "=").first ?? "")'"
            + suggestion(name, among: command.options.map(\.name), quoted: { "--" + $0 }),
          command: command.name)
      }
      if option.value == nil, inline != nil {
        throw UsageError("The flag '--\(name)' does not take a value", command: command.name)
      }
      return option
    }
    guard argument.count == 2, let letter = argument.last,
      let option = command.option(short: letter)
    else {
      throw UsageError("Unknown option '\(argument)'", command: command.name)
    }
    return option
  }

  /// `Unknown subcommand 'erors'. Did you mean 'errors'?` (commands meant for scripts, whose
  /// names start with `_`, are never suggested).
  static func unknownSubcommand(_ name: String, commands: [CommandSpec]) -> UsageError {
    UsageError(
      "Unknown subcommand '\(name)'"
        + suggestion(name, among: commands.map(\.name).filter { !$0.hasPrefix("_") }))
  }

  /// `. Did you mean 'x'?` after an unknown name, or nothing.
  private static func suggestion(
    _ typed: String, among names: [String], quoted: (String) -> String = { $0 }
  ) -> String {
    let hint = Suggestion.didYouMean(typed, among: names, quoted: quoted)
    return hint.isEmpty ? "" : "." + hint
  }

  private static func split(_ argument: String) -> (name: String, inline: String?) {
    let body = argument.drop { $0 == "-" }
    guard let equals = body.firstIndex(of: "=") else { return (String(body), nil) }
    return (String(body[..<equals]), String(body[body.index(after: equals)...]))
  }

  private static func value(
    for option: OptionSpec, inline: String?, arguments: [String], index: inout Int,
    command: String?
  ) throws -> String {
    if let inline {
      try requireBounded(inline, what: "value for '\(option.synopsis)'", command: command)
      return inline
    }
    guard index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") else {
      throw UsageError("Missing value for '\(option.synopsis)'", command: command)
    }
    index += 1
    try requireBounded(arguments[index], what: "value for '\(option.synopsis)'", command: command)
    return arguments[index]
  }

  /// Refuses a value longer than `maximumValueBytes`, without echoing it.
  private static func requireBounded(_ text: String, what: String, command: String?) throws {
    let bytes = text.utf8.count
    guard bytes > maximumValueBytes else { return }
    throw UsageError(
      "The \(what) is \(bytes) bytes long; at most \(maximumValueBytes) are accepted",
      command: command)
  }
}
