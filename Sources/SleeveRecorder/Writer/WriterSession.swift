import SleeveStore

/// What the writer knows of one session: its row, its clock origin, and which of its rows
/// exist, so that nothing it writes can break a foreign key after an earlier batch failed.
struct WriterSession {
  /// The session's row id; 0 until its row is committed.
  var rowID: Int64 = 0
  let startedMonotonicNanoseconds: Int64
  let startedUnixNanoseconds: Int64
  var outcomeSequence: UInt64 = 0
  var knownControls: Set<UInt64> = []
  /// Fires and registrations whose rows were lost in a failed batch: their outcomes are
  /// counted as failed instead of written.
  var lostFires = FireRanges()
  var lostRegistrations: Set<UInt64> = []
  var failedEvents = 0
  var writeErrors = 0
  var lastError: String?
  var ended = false
  /// The counters last written to the session's row.
  var persisted = Progress(dropped: 0, failed: 0, writeErrors: 0)

  struct Progress: Equatable {
    var dropped: Int
    var failed: Int
    var writeErrors: Int
  }

  init(rowID: Int64, startedMonotonicNanoseconds: Int64, startedUnixNanoseconds: Int64) {
    self.rowID = rowID
    self.startedMonotonicNanoseconds = startedMonotonicNanoseconds
    self.startedUnixNanoseconds = startedUnixNanoseconds
  }

  /// The row id of a control, registration or fire numbered `number` in this session:
  /// `session << 40 | number` (see Migrations/0001_initial.sql).
  func rowID(_ number: UInt64) -> Int64 {
    RowID.make(session: rowID, number: Int64(number & UInt64(RowID.numberMask)))
  }

  /// The wall-clock time of a monotonic instant, from the session's start pair.
  func startedUnixNanoseconds(at monotonicNanoseconds: Int64) -> Int64 {
    startedUnixNanoseconds + sinceStart(monotonicNanoseconds)
  }

  /// Monotonic nanoseconds since the session started.
  func sinceStart(_ monotonicNanoseconds: Int64) -> Int64 {
    monotonicNanoseconds - startedMonotonicNanoseconds
  }
}
