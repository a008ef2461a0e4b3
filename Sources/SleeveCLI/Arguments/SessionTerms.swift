import SleeveQuery

/// The filters that choose sessions, the one home of their names and value rules: each is an
/// option of every query command (`--branch main`) and a term of a selection
/// (`--baseline branch=main,last=20`).
enum SessionTerms {
  /// The most sessions `last` takes.
  static let maximumLast = 1_000_000

  /// How a term's value narrows a filter, once parsed.
  typealias Narrowing = @Sendable (inout QueryFilter) -> Void

  /// `--session`, as the query commands take it (default: the last session).
  static let session = term(
    "session", value: "session", help: "last (default), all, a session id or a UUID.",
    completion: .recorded("sessions", fixed: ["last", "all"]))
  /// `--last n`.
  static let last = term(
    "last", value: "n", help: "The n most recent sessions the other filters allow.")

  /// The options, as every query command lists them.
  static let options = [
    session,
    term("name", value: "glob", help: "Only sessions whose name matches (e.g. 'Checkout*')."),
    term("since", value: "time", help: "Only sessions started since a date, time or age (2h)."),
    term(
      "commit", value: "sha", help: "Only sessions that built this commit (4+ characters of it)."),
    term("branch", value: "name", help: "Only sessions that built this branch."),
    term("test", value: "glob", help: "Only sessions of tests whose id or name matches."),
    term("tag", value: "tag", help: "Only sessions with this tag (or their test's)."),
    last,
  ]

  /// `--session` for the commands that take every session unless told otherwise (`sessions`,
  /// `summarize`, `prune`): the shared option's help says `last`.
  static let sessionDefaultingToAll = term(
    "session", value: "session", help: "all (default), last, a session id or a UUID.",
    completion: .recorded("sessions", fixed: ["last", "all"]))

  /// The options, as the commands that default to every session list them.
  static let optionsDefaultingToAll =
    [sessionDefaultingToAll] + options.filter { $0.spec.name != session.spec.name }

  /// Every term's name, in the order help lists them (the selection grammar's keys).
  static let names = options.map(\.spec.name)

  /// The option for term `name`, its value read by ``narrowing(_:_:)``.
  private static func term(
    _ name: String, value: String, help: String, completion: CompletionModel.Values = .none
  ) -> Option<Narrowing> {
    Option(name, value: value, help: help, completion: completion) { text throws(ValueError) in
      try narrowing(name, text)
    }
  }

  /// Sets the term `name` to `text` in `filter`.
  ///
  /// - Throws: `ValueError` saying why the value is wrong.
  static func apply(_ name: String, _ text: String, to filter: inout QueryFilter)
    throws(ValueError)
  {
    try narrowing(name, text)(&filter)
  }

  /// How term `name` with value `text` narrows a filter: the one home of the terms' value rules.
  ///
  /// - Throws: `ValueError` saying why the value is wrong.
  static func narrowing(_ name: String, _ text: String) throws(ValueError) -> Narrowing {
    // A recorded name, branch, test or tag that is blank reads as unknown, so a blank value
    // could match nothing: it is a mistake, said as one.
    if ["name", "branch", "test", "tag"].contains(name),
      text.unicodeScalars.allSatisfy(\.properties.isWhitespace)
    {
      throw ValueError("expected a \(name == "name" ? "glob" : name); the value is empty")
    }
    switch name {
    case "session":
      let session = try ValueParsers.session(text)
      return { $0.session = session }
    case "name": return { $0.nameGlob = text }
    case "since":
      let since = try ValueParsers.since(text)
      return { $0.sinceUnixNanoseconds = since }
    case "commit":
      guard !text.isEmpty else { throw ValueError("expected a commit id (4 or more characters)") }
      return { $0.commit = text }
    case "branch": return { $0.branch = text }
    case "test": return { $0.testGlob = text }
    case "tag": return { $0.tag = text }
    case "last":
      let limit = try ValueParsers.count(text, minimum: 1, maximum: maximumLast)
      return {
        $0.limit = limit
        $0.session = .all
      }
    default:
      throw ValueError("unknown term '\(name)'; expected " + names.joined(separator: ", "))
    }
  }

  /// Whether both `last` and `session` were given: they choose sessions two ways.
  static let conflict = "--last and --session choose sessions two ways; give one of them"
}
