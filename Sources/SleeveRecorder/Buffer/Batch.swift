/// Buffered events in three lanes, so the hot ones (fires and outcomes) are stored inline as
/// plain values, appended in bulk, and tagged with their session once per run instead of once
/// per record. An outcome's error, if any, sits in ``errors``.
///
/// Order is kept within each lane. The writer applies the lanes in an order that respects
/// every foreign key: structural events (sessions, registrations, flags), then fires, then
/// outcomes, then session ends.
struct Batch: Sendable {
  var structural: [PendingEvent] = []
  var fires = Lane<FireRecord>()
  var outcomes = Lane<OutcomeRecord>()
  /// Errors thrown by handlers; `OutcomeRecord.errorIndex` is 1 + an index here.
  var errors: [any Error] = []

  var count: Int { structural.count + fires.count + outcomes.count }
  var isEmpty: Bool { structural.isEmpty && fires.count == 0 && outcomes.count == 0 }

  mutating func removeAll() {
    structural.removeAll(keepingCapacity: true)
    fires.removeAll()
    outcomes.removeAll()
    errors.removeAll(keepingCapacity: true)
  }
}

/// Records of several sessions in arrival order, with the session given per run of
/// consecutive records.
struct Lane<Record: BitwiseCopyable>: Sendable {
  /// A run of consecutive records of one session.
  struct Run: Sendable {
    let session: SessionKey
    var count: Int
  }

  let records = RecordBuffer<Record>()
  /// Finished runs; the current one is kept in the two fields below, so extending it touches
  /// no array.
  private var finishedRuns: [Run] = []
  private var currentSession: SessionKey?
  private var currentCount = 0

  var count: Int { records.count }

  mutating func append(_ record: Record, session: SessionKey) {
    records.append(record)
    extendRun(session, by: 1)
  }

  mutating func append(contentsOf more: RecordBuffer<Record>, session: SessionKey) {
    guard !more.isEmpty else { return }
    records.append(contentsOf: more)
    extendRun(session, by: more.count)
  }

  mutating func removeAll() {
    records.removeAll()
    finishedRuns.removeAll(keepingCapacity: true)
    currentSession = nil
    currentCount = 0
  }

  /// Calls `body` once per run with its session and the range of its records.
  func forEachRun(_ body: (SessionKey, _ start: Int, _ end: Int) throws -> Void) rethrows {
    var start = 0
    for run in finishedRuns {
      try body(run.session, start, start + run.count)
      start += run.count
    }
    if let currentSession { try body(currentSession, start, start + currentCount) }
  }

  private mutating func extendRun(_ session: SessionKey, by count: Int) {
    if currentSession == session {
      currentCount += count
      return
    }
    if let currentSession { finishedRuns.append(Run(session: currentSession, count: currentCount)) }
    currentSession = session
    currentCount = count
  }
}
