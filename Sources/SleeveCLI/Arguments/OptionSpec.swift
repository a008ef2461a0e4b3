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

  init(_ name: String, short: Character? = nil, value: String? = nil, help: String) {
    self.name = name
    self.short = short
    self.value = value
    self.help = help
  }

  /// `--db <path>` or `--status`.
  var synopsis: String { "--\(name)" + (value.map { " <\($0)>" } ?? "") }

  /// `-h, --help` or `--db <path>`, as listed in help.
  var label: String { (short.map { "-\($0), " } ?? "") + synopsis }
}
