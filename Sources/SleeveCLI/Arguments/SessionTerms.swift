import SleeveQuery

/// The filters that choose sessions, the one home of their names and value rules: each is an
/// option of every query command (`--branch main`) and a term of a selection
/// (`--baseline branch=main,last=20`).
enum SessionTerms {
  /// Every term's name, in the order help lists them.
  static let names = ["session", "name", "since", "commit", "branch", "test", "tag", "last"]

  /// The most sessions `last` takes.
  static let maximumLast = 1_000_000

  /// The options, as every query command lists them.
  static let options = [
    OptionSpec(
      "session", value: "session", help: "last (default), all, a session id or a UUID."),
    OptionSpec("name", value: "glob", help: "Only sessions whose name matches (e.g. 'Checkout*')."),
    OptionSpec(
      "since", value: "time", help: "Only sessions started since a date, time or age (2h)."),
    OptionSpec(
      "commit", value: "sha", help: "Only sessions that built this commit (4+ characters of it)."),
    OptionSpec("branch", value: "name", help: "Only sessions that built this branch."),
    OptionSpec("test", value: "glob", help: "Only sessions of tests whose id or name matches."),
    OptionSpec("tag", value: "tag", help: "Only sessions with this tag (or their test's)."),
    OptionSpec("last", value: "n", help: "The n most recent sessions the other filters allow."),
  ]

  /// `--session` for the commands that take every session unless told otherwise (`sessions`,
  /// `summarize`, `prune`): the shared option's help says `last`.
  static let sessionDefaultingToAll = OptionSpec(
    "session", value: "session", help: "all (default), last, a session id or a UUID.")

  /// The options, as the commands that default to every session list them.
  static let optionsDefaultingToAll =
    [sessionDefaultingToAll] + options.filter { $0.name != "session" }

  /// Sets the term `name` to `text` in `filter`.
  ///
  /// - Throws: `ValueError` saying why the value is wrong.
  static func apply(_ name: String, _ text: String, to filter: inout QueryFilter)
    throws(ValueError)
  {
    // A recorded name, branch, test or tag that is blank reads as unknown, so a blank value
    // could match nothing: it is a mistake, said as one.
    if ["name", "branch", "test", "tag"].contains(name),
      text.unicodeScalars.allSatisfy(\.properties.isWhitespace)
    {
      throw ValueError("expected a \(name == "name" ? "glob" : name); the value is empty")
    }
    switch name {
    case "session": filter.session = try ValueParsers.session(text)
    case "name": filter.nameGlob = text
    case "since": filter.sinceUnixNanoseconds = try ValueParsers.since(text)
    case "commit":
      guard !text.isEmpty else { throw ValueError("expected a commit id (4 or more characters)") }
      filter.commit = text
    case "branch": filter.branch = text
    case "test": filter.testGlob = text
    case "tag": filter.tag = text
    case "last":
      filter.limit = try ValueParsers.count(text, minimum: 1, maximum: maximumLast)
      filter.session = .all
    default:
      throw ValueError("unknown term '\(name)'; expected " + names.joined(separator: ", "))
    }
  }

  /// Whether both `last` and `session` were given: they choose sessions two ways.
  static let conflict = "--last and --session choose sessions two ways; give one of them"
}
