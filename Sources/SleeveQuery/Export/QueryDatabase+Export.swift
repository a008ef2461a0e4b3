import SleeveCore
import SleeveStore

extension QueryDatabase {
  /// Calls `body` with each fire of `session` and its outcomes, in fire order, reading one
  /// snapshot of the file. Memory stays bounded whatever the session's size: rows are read
  /// as they are handed out (outcomes are ordered by fire with SQLite's sorter, which spills
  /// to temporary files), and only one fire's outcomes are held at a time.
  ///
  /// Outcomes whose fire row is missing are handed out too, each in a group of its own with a
  /// `nil` fire, where their fire would have been.
  ///
  /// - Throws: `QueryError` for a file that cannot be read; whatever `body` throws.
  public func forEachFireGroup(
    in session: SessionSummary, _ body: (ExportFireGroup) throws -> Void
  ) throws {
    try translating {
      guard let ids = session.idRange else { return }  // a session that owns no rows
      let (lower, upper) = (ids.lowerBound, ids.upperBound)
      let fires = try FireCursor(database: self, lower: lower, upper: upper, session: session)
      let outcomes = try OutcomeCursor(
        database: self, lower: lower, upper: upper, session: session)
      var pending = try outcomes.next()
      while let fire = try fires.next() {
        while let orphan = pending, orphan.fireID < fire.id {
          try body(ExportFireGroup(fire: nil, outcomes: [orphan.outcome]))
          pending = try outcomes.next()
        }
        var own: [ExportOutcome] = []
        while let outcome = pending, outcome.fireID == fire.id {
          own.append(outcome.outcome)
          pending = try outcomes.next()
        }
        try body(ExportFireGroup(fire: fire.fire, outcomes: own))
      }
      while let orphan = pending {
        try body(ExportFireGroup(fire: nil, outcomes: [orphan.outcome]))
        pending = try outcomes.next()
      }
    }
  }
}

/// A recorded text capped as the recorder caps it on the way in (`RecordedText`), whatever the
/// file holds: an exported row repeats no text longer than the recorder could have written.
private func capped(_ text: String?, to limit: RecordedText.Limit = .name) -> String? {
  text.map { RecordedText.capped($0, to: limit) }
}

/// The number part of a row id: stable when sessions are merged.
private func number(of id: Int64) -> Int64 { RowID.number(of: id) }

/// The wall-clock time of a monotonic offset from the session's start; a pair a file can hold
/// whose sum does not fit in Int64 is a damaged row (65, naming it), never a trap or a
/// wrapped time.
private func unixNanoseconds(
  _ start: Int64, plus offset: Int64, row: @autoclosure () -> String, path: String
) throws -> Int64 {
  let (sum, overflow) = start.addingReportingOverflow(offset)
  guard !overflow else {
    throw QueryError.store(
      .corrupt(
        path: path,
        detail: "\(row()): its time from the session's start does not fit in Int64 nanoseconds"))
  }
  return sum
}

/// Fires of one session in id order, with their control.
private struct FireCursor {
  let statement: Statement
  let parentLookup: Statement
  let startedUnixNanoseconds: Int64
  let path: String

  init(database: QueryDatabase, lower: Int64, upper: Int64, session: SessionSummary) throws {
    path = database.path
    statement = try database.connection.prepare(
      """
      SELECT f.id, f.parent_fire_id, f.events, f.origin, f.depth, f.at_ns, c.name, c.kind
      FROM fires f LEFT JOIN controls c ON c.id = f.control_id
      WHERE f.id BETWEEN ? AND ? ORDER BY f.id
      """)
    try statement.bind(lower, at: 1)
    try statement.bind(upper, at: 2)
    parentLookup = try database.connection.prepare("SELECT parent_fire_id FROM fires WHERE id = ?")
    startedUnixNanoseconds = session.startedUnixNanoseconds
  }

  func next() throws -> (id: Int64, fire: ExportFire)? {
    guard try statement.step() else { return nil }
    let id = statement.int64(at: 0)
    let parent = statement.optionalInt64(at: 1)
    let fire = ExportFire(
      number: number(of: id), parentNumber: parent.map(number(of:)),
      rootNumber: number(of: try root(of: id, parent: parent)),
      control: capped(statement.text(at: 6)), controlKind: capped(statement.text(at: 7)),
      events: ControlEvents(rawValue: UInt(truncatingIfNeeded: statement.int64(at: 2)))
        .description,
      origin: RecordCodes.name(statement.int64(at: 3), as: RecordCodes.FireOrigin.self),
      depth: statement.int64(at: 4),
      atUnixNanoseconds: try unixNanoseconds(
        startedUnixNanoseconds, plus: statement.int64(at: 5), row: "fires row \(id)", path: path))
    return (id, fire)
  }

  /// Follows parent links to the outermost recorded fire (chains are as deep as the
  /// dispatch's recursion limit; a broken or cyclic chain stops where it breaks).
  private func root(of id: Int64, parent: Int64?) throws -> Int64 {
    var current = id
    var next = parent
    var steps = 0
    while let parent = next, steps < 1_000 {
      parentLookup.reset()
      try parentLookup.bind(parent, at: 1)
      guard try parentLookup.step() else { break }
      current = parent
      next = parentLookup.optionalInt64(at: 0)
      steps += 1
    }
    parentLookup.reset()
    return current
  }
}

/// Outcomes of one session ordered by fire, then by recording order, with their handler.
///
/// Only integers go through SQLite's sorter (the `ORDER BY fire_id`): a text column in the
/// sorted rows would be copied into the sorter's memory once per row, so memory would grow
/// with rows times text length (a 1 MB handler name over 1,400 outcomes held 737 MB). The
/// texts (the handler's names, the error's type and message) are read by id after sorting,
/// one row at a time; the last registration read is kept, so consecutive outcomes of one
/// handler share its strings.
private struct OutcomeCursor {
  let statement: Statement
  let registrationLookup: Statement
  let errorLookup: Statement
  let startedUnixNanoseconds: Int64
  private let lastRegistration = LastRegistration()
  let path: String

  /// The texts of one registration row (all `nil` when the row is missing).
  struct Registration {
    var handler, identifier, kind, site, flagKey: String?
  }

  /// The registration read last, by id.
  final class LastRegistration {
    var id: Int64?
    var texts = Registration()
  }

  init(database: QueryDatabase, lower: Int64, upper: Int64, session: SessionSummary) throws {
    path = database.path
    statement = try database.connection.prepare(
      """
      SELECT fire_id, id, registration_id, variant, flag_state, is_async, status, reason,
        started_ns, duration_ns, error_type IS NOT NULL OR error_message IS NOT NULL
      FROM outcomes WHERE id BETWEEN ? AND ? ORDER BY fire_id, id
      """)
    try statement.bind(lower, at: 1)
    try statement.bind(upper, at: 2)
    registrationLookup = try database.connection.prepare(
      "SELECT handler, identifier, kind, site, flag_key FROM registrations WHERE id = ?")
    errorLookup = try database.connection.prepare(
      "SELECT error_type, error_message FROM outcomes WHERE id = ?")
    startedUnixNanoseconds = session.startedUnixNanoseconds
  }

  func next() throws -> (fireID: Int64, outcome: ExportOutcome)? {
    guard try statement.step() else { return nil }
    let fireID = statement.int64(at: 0)
    let id = statement.int64(at: 1)
    let registration = try self.registration(statement.optionalInt64(at: 2))
    let error = statement.int64(at: 10) != 0 ? try errorTexts(of: id) : (nil, nil)
    let outcome = ExportOutcome(
      number: number(of: id), fireNumber: number(of: fireID),
      handler: registration.handler, identifier: registration.identifier,
      handlerKind: registration.kind, site: registration.site, flagKey: registration.flagKey,
      variant: statement.optionalInt64(at: 3).map {
        RecordCodes.name($0, as: RecordCodes.Variant.self)
      },
      flagState: statement.optionalInt64(at: 4).map {
        RecordCodes.name($0, as: RecordCodes.FlagState.self)
      },
      isAsync: statement.int64(at: 5) != 0,
      status: RecordCodes.name(statement.int64(at: 6), as: RecordCodes.Status.self),
      skipReason: statement.optionalInt64(at: 7).map {
        RecordCodes.name($0, as: RecordCodes.SkipReason.self)
      },
      startedUnixNanoseconds: try unixNanoseconds(
        startedUnixNanoseconds, plus: statement.int64(at: 8), row: "outcomes row \(id)",
        path: path),
      durationNanoseconds: statement.int64(at: 9), errorType: error.0, errorMessage: error.1)
    return (fireID, outcome)
  }

  /// The texts of registration `id`, read once per run of outcomes with that registration.
  private func registration(_ id: Int64?) throws -> Registration {
    guard let id else { return Registration() }
    if lastRegistration.id == id { return lastRegistration.texts }
    defer { registrationLookup.reset() }
    try registrationLookup.bind(id, at: 1)
    var texts = Registration()
    if try registrationLookup.step() {
      texts = Registration(
        handler: capped(registrationLookup.text(at: 0)),
        identifier: capped(registrationLookup.text(at: 1)),
        kind: capped(registrationLookup.text(at: 2)), site: capped(registrationLookup.text(at: 3)),
        flagKey: capped(registrationLookup.text(at: 4)))
    }
    lastRegistration.id = id
    lastRegistration.texts = texts
    return texts
  }

  /// The error type and message of outcome `id`.
  private func errorTexts(of id: Int64) throws -> (String?, String?) {
    defer { errorLookup.reset() }
    try errorLookup.bind(id, at: 1)
    guard try errorLookup.step() else { return (nil, nil) }
    return (capped(errorLookup.text(at: 0)), capped(errorLookup.text(at: 1), to: .message))
  }
}
