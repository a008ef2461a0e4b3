/// One option a command accepts: a flag (`--status`) or an option with a value
/// (`--db <path>`).
struct OptionSpec: Sendable {
  /// The long name without dashes, e.g. `db`.
  let name: String
  /// A one-letter alias, e.g. `h`.
  let short: Character?
  /// The value's placeholder (`path`), or `nil` for a flag.
  let value: String?
  /// One line of help.
  let help: String
  /// Whether `--help` and the usage line list it (the display options are documented in
  /// README and offered by the completion scripts, but not listed in each command's help).
  let listedInHelp: Bool
  /// What the completion scripts offer for its value (``CompletionModel``); `.none` for a
  /// flag or a free value.
  let completion: CompletionModel.Values

  init(
    _ name: String, short: Character? = nil, value: String? = nil, help: String,
    listedInHelp: Bool = true, completion: CompletionModel.Values = .none
  ) {
    self.completion = completion
    self.name = name
    self.short = short
    self.value = value
    self.help = help
    self.listedInHelp = listedInHelp
  }

  /// `--db <path>` or `--status`.
  var synopsis: String { "--\(name)" + (value.map { " <\($0)>" } ?? "") }

  /// `-h, --help` or `--db <path>`, as listed in help.
  var label: String { (short.map { "-\($0), " } ?? "") + synopsis }
}
