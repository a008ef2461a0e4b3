/// Why a session's summaries cannot be written or read.
public enum SummaryError: Error, Equatable, CustomStringConvertible {
  /// A summary row of the session does not decode or contradicts itself.
  case damaged(session: Int64, detail: String)
  /// The session's raw rows were pruned: only its summaries remain.
  case rawRowsPruned(session: Int64)
  /// A rollup row of the block of sessions does not decode or contradicts itself.
  case damagedRollup(block: Int64, detail: String)
  /// A session of a file `merge` reads has summaries that do not decode, contradict
  /// themselves or do not match their checksums: nothing of the session is copied.
  case damagedInput(path: String, session: Int64, detail: String)

  /// One line naming the session and what to do.
  public var description: String {
    switch self {
    case .damaged(let session, let detail):
      "session \(session) has a damaged latency summary (\(detail)); rebuild its summaries "
        + "from its raw rows with 'sleeve summarize --session \(session) --rebuild' (--exact "
        + "answers from raw rows meanwhile, unless its session_summaries row is the damage)"
    case .damagedRollup(let block, let detail):
      "the latency summary rollup of sessions \(max(1, SummaryRollups.sessions(of: block).lowerBound))–"
        + "\(SummaryRollups.sessions(of: block).upperBound) is damaged (\(detail)); answer with "
        + "--exact, or rebuild it with 'sleeve summarize --rebuild'"
    case .rawRowsPruned(let session):
      "session \(session)'s raw fires and outcomes were pruned; only its summaries remain"
    case .damagedInput(let path, let session, let detail):
      "\(path): session \(session) has a damaged latency summary (\(detail)); nothing of it "
        + "was merged: rebuild its summaries there with 'sleeve summarize --db <input> "
        + "--session \(session) --rebuild'"
    }
  }
}

extension SummaryError: CommandFailure {
  /// 65 for a damaged summary or rollup (of the file or of a merge input), 69 when only the
  /// summaries of a pruned session remain.
  public var exitCode: ExitCode {
    switch self {
    case .damaged, .damagedRollup, .damagedInput: .dataError
    case .rawRowsPruned: .unavailable
    }
  }
}
