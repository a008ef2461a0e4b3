import SleeveStore

/// What the writer knows of one session: its row, its clock origin, which of its rows exist
/// (so that nothing it writes can break a foreign key after an earlier batch failed), and how
/// its rows are numbered.
struct WriterSession {
  /// The session's row id; 0 until its row is committed.
  var rowID: Int64 = 0
  let startedMonotonicNanoseconds: Int64
  let startedUnixNanoseconds: Int64
  var outcomeSequence: Int64 = 0
  var interactionSequence: Int64 = 0
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
  /// The session's row numbers. Shared by every copy of this value (the writer stages copies
  /// per batch): a number once given is never given to another row, even when the batch that
  /// gave it fails, so a row written again later gets the same id.
  private let numbers = RowNumbers()

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

  /// The row id of the control with the process-wide number `control`: numbered in the order
  /// this session first needs it. `nil` past `RowID.numbers` (never wrapped).
  func controlRowID(_ control: UInt64) -> Int64? {
    numbers.control(control).flatMap(id)
  }

  /// The row id of the registration with the process-wide number `registration`, numbered as
  /// controls are.
  func registrationRowID(_ registration: UInt64) -> Int64? {
    numbers.registration(registration).flatMap(id)
  }

  /// The row id of the fire with the process-wide number `fire`: 1 + its distance from the
  /// session's first fire (fire numbers rise in firing order, and a session's fires reach the
  /// writer in that order, so no map is kept). `nil` for a fire before the first or past
  /// `RowID.numbers`.
  func fireRowID(_ fire: UInt64) -> Int64? {
    if numbers.firstFire == nil { numbers.firstFire = fire }
    return parentFireRowID(fire)
  }

  /// The row id of an earlier fire of this session (a parent, or an outcome's fire), without
  /// starting the numbering; `nil` for 0 (none) and for any fire this session cannot number.
  func parentFireRowID(_ fire: UInt64) -> Int64? {
    guard let first = numbers.firstFire, fire >= first, fire - first < UInt64(Int64.max)
    else { return nil }
    return id(Int64(fire - first) + 1)
  }

  /// The row id of the registration with the process-wide number `registration` when this
  /// session has numbered it already; never numbers a new one.
  func knownRegistrationRowID(_ registration: UInt64) -> Int64? {
    numbers.knownRegistration(registration).flatMap(id)
  }

  /// The row id of the session's next interaction, or `nil` once its numbers are used up.
  mutating func nextInteractionRowID() -> Int64? {
    guard let id = id(interactionSequence + 1) else { return nil }
    interactionSequence += 1
    return id
  }

  /// The row id of the session's next outcome, or `nil` once its numbers are used up.
  mutating func nextOutcomeRowID() -> Int64? {
    guard let id = id(outcomeSequence + 1) else { return nil }
    outcomeSequence += 1
    return id
  }

  /// Counts a row this session cannot number (more than `RowID.numbers.upperBound` rows of
  /// one kind) as a failed event, with the reason as the session's last error.
  mutating func refuse() {
    failedEvents += 1
    lastError = Self.outOfNumbers
  }

  /// Why a row was refused.
  static let outOfNumbers =
    "the session has more fires, outcomes, handlers or controls than a session can number "
    + "(\(RowID.numbers.upperBound) of each); start a new session to record more"

  private func id(_ number: Int64) -> Int64? { RowID.make(session: rowID, number: number) }

  /// The wall-clock time of a monotonic instant, from the session's start pair.
  func startedUnixNanoseconds(at monotonicNanoseconds: Int64) -> Int64 {
    startedUnixNanoseconds + sinceStart(monotonicNanoseconds)
  }

  /// Monotonic nanoseconds since the session started.
  func sinceStart(_ monotonicNanoseconds: Int64) -> Int64 {
    monotonicNanoseconds - startedMonotonicNanoseconds
  }
}

/// One session's numbering of controls, registrations and fires. Lives on the writer thread
/// only (inside `BatchWriter`, which never leaves it).
private final class RowNumbers {
  private var controls: [UInt64: Int64] = [:]
  private var registrations: [UInt64: Int64] = [:]
  var firstFire: UInt64?

  /// The number of the control `key` (process-wide), given now when it has none.
  func control(_ key: UInt64) -> Int64? { Self.number(of: key, in: &controls) }

  /// The number of the registration `key` when it has one.
  func knownRegistration(_ key: UInt64) -> Int64? { registrations[key] }

  /// The number of the registration `key` (process-wide), given now when it has none.
  func registration(_ key: UInt64) -> Int64? { Self.number(of: key, in: &registrations) }

  /// The number `key` has in `table`, given now (the next one) when it has none; `nil` when
  /// the table is full.
  private static func number(of key: UInt64, in table: inout [UInt64: Int64]) -> Int64? {
    if let number = table[key] { return number }
    let next = Int64(table.count) + 1
    guard RowID.numbers.contains(next) else { return nil }
    table[key] = next
    return next
  }
}
