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
  /// Its options, in help order (`--help` is added).
  let options: [OptionSpec]

  init(
    name: String, abstract: String, discussion: String? = nil, arguments: [String] = [],
    options: [OptionSpec]
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.arguments = arguments
    self.options = options + [OptionSpec("help", short: "h", help: "Show help information.")]
  }

  /// `sleeve migrate [--db <path>] [--status]`, or `sleeve latency [<options>]` when the
  /// command has more than three options.
  var usage: String {
    let listed = options.filter { $0.name != "help" }
    let optionsPart =
      listed.count > 3 ? ["[<options>]"] : listed.map { "[\($0.synopsis)]" }
    let arguments = self.arguments.map { "<\($0)>" }
    return (["sleeve", name] + arguments + optionsPart).joined(separator: " ")
  }

  func option(named name: String) -> OptionSpec? {
    options.first { $0.name == name }
  }

  func option(short: Character) -> OptionSpec? {
    options.first { $0.short == short }
  }
}
