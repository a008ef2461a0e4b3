import SleeveStore

/// Why a query could not run. Each description is one line naming the problem and what to do.
public enum QueryError: Error, Equatable, CustomStringConvertible {
  /// The database file does not exist.
  case databaseNotFound(path: String)
  /// No session matches the selection.
  case sessionNotFound(String)
  /// The file is not a Sleeve database, is damaged, or is from a newer Sleeve.
  case store(StoreError)
  /// SQLite failed (I/O, permissions, lock held past the busy timeout).
  case sqlite(SQLiteError, path: String)
  /// The answer needs the raw fires and outcomes of sessions whose raw rows were pruned
  /// (`sleeve prune`): `need` says what asked for them (`--exact`, `--by event`,
  /// `sleeve export`); an option (`--…`) is named as one to drop.
  case rawRowsPruned(sessions: [Int64], need: String)
  /// The answer needs summaries (`--method histogram`, or a selection whose other sessions
  /// are pruned) that these ended sessions do not have yet.
  case notSummarized(sessions: [Int64])
  /// The answer needs raw rows (`need`: `--by event`, whose fires summaries do not keep)
  /// but `--method histogram` asked for summaries only: the two cannot both hold.
  case summariesCannotAnswer(need: String)
  /// A session's summary rows do not decode, or contradict themselves.
  case damagedSummary(SummaryError)

  /// One line naming the problem and what to do.
  public var description: String {
    switch self {
    case .databaseNotFound(let path):
      "database '\(path)' not found; record a session first (e.g. 'sleeve demo') or pass --db"
    case .sessionNotFound(let selection):
      "no session matches \(selection); list them with 'sleeve sessions --session all'"
    case .store(let error):
      error.description
    case .sqlite(let error, let path):
      "cannot read '\(path)': \(error)"
    case .rawRowsPruned(let sessions, let need):
      "\(need) needs raw rows, and \(Self.sessionList(sessions)) \(sessions.count == 1 ? "was" : "were") "
        + "pruned (only summaries remain); "
        + (need.hasPrefix("--")
          ? "answer from the summaries (drop \(need)) or select other sessions"
          : "select other sessions (--session, --since, --last)")
    case .notSummarized(let sessions):
      "\(Self.sessionList(sessions)) \(sessions.count == 1 ? "has" : "have") no summaries yet, so the "
        + "selection cannot be answered from summaries alike; add them with 'sleeve summarize', "
        + "or answer from raw rows (--exact) where they exist"
    case .summariesCannotAnswer(let need):
      "\(need) needs raw rows (summaries are per handler, not per event), and --method histogram "
        + "answers from summaries only; drop --method histogram, or drop \(need)"
    case .damagedSummary(let error):
      error.description
    }
  }

  /// `session 4` or `sessions 3, 4, 9` (the first 10, then `and N more`).
  public static func sessionList(_ sessions: [Int64]) -> String {
    let shown = sessions.prefix(10).map(String.init).joined(separator: ", ")
    let more = sessions.count > 10 ? " and \(sessions.count - 10) more" : ""
    return (sessions.count == 1 ? "session " : "sessions ") + shown + more
  }
}

extension QueryError: CommandFailure {
  /// 66 for a missing database or session; the wrapped error's code for a store, SQLite or
  /// damaged-summary failure; 69 for an answer that needs rows or summaries the file lacks.
  public var exitCode: ExitCode {
    switch self {
    case .databaseNotFound, .sessionNotFound: .notFound
    case .store(let error): error.exitCode
    case .sqlite(let error, _): error.exitCode
    case .rawRowsPruned, .notSummarized, .summariesCannotAnswer: .unavailable
    case .damagedSummary(let error): error.exitCode
    }
  }
}
