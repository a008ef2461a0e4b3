/// What a command accepts and how it describes itself in help.
struct CommandSpec: Sendable {
  /// The subcommand's name, e.g. `latency`.
  let name: String
  /// One line: what it does.
  let abstract: String
  /// More paragraphs for `--help`, if any.
  let discussion: String?
  /// Positional arguments, by placeholder (`flag`), all required.
  let arguments: [String]
  /// Whether the last positional argument may be given more than once (`<input>...`).
  let repeatsLastArgument: Bool
  /// Whether the positional arguments may all be left out (`sleeve lint` alone, or
  /// `sleeve lint suppress …`): given, they are all required as usual.
  let argumentsOptional: Bool
  /// What the completion scripts offer for its positional arguments (`nil`: nothing).
  let argumentCompletion: CompletionModel.Values?
  /// Its options, in help order (`--help` is added).
  let options: [OptionSpec]
  /// Whether the top-level help lists it (`false` for the helper the completion scripts call).
  let listedInHelp: Bool

  init(
    name: String, abstract: String, discussion: String? = nil, arguments: [String] = [],
    repeatsLastArgument: Bool = false, argumentsOptional: Bool = false,
    completingArguments argumentCompletion: CompletionModel.Values? = nil, options: [OptionSpec],
    listedInHelp: Bool = true
  ) {
    self.argumentCompletion = argumentCompletion
    self.listedInHelp = listedInHelp
    self.argumentsOptional = argumentsOptional
    self.repeatsLastArgument = repeatsLastArgument
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.arguments = arguments
    self.options = options + [OptionSpec("help", short: "h", help: "Show help information.")]
  }

  /// `sleeve migrate [--db <path>] [--status]`, or `sleeve latency [<options>]` when the
  /// command has more than three options.
  var usage: String {
    let listed = options.filter { $0.name != "help" && $0.listedInHelp }
    let optionsPart =
      listed.count > 3 ? ["[<options>]"] : listed.map { "[\($0.synopsis)]" }
    let placeholders = argumentPlaceholders.joined(separator: " ")
    let arguments =
      placeholders.isEmpty ? [] : [argumentsOptional ? "[\(placeholders)]" : placeholders]
    return (["sleeve", name] + arguments + optionsPart).joined(separator: " ")
  }

  /// `<out>` and `<input>...`: the positional arguments as usage and help show them.
  var argumentPlaceholders: [String] {
    arguments.enumerated().map { index, name in
      "<\(name)>" + (repeatsLastArgument && index == arguments.count - 1 ? "..." : "")
    }
  }

  func option(named name: String) -> OptionSpec? {
    options.first { $0.name == name }
  }

  func option(short: Character) -> OptionSpec? {
    options.first { $0.short == short }
  }
}
