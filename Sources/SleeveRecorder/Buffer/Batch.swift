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

/// Records of several sessions in arrival order, as pieces of one session each.
///
/// A session's staged records join the lane as the buffer they were staged in
/// (``append(taking:session:)``): a hand-off copies no record, whatever its size. Single
/// records (an async outcome after its fire, a filtered hand-off) go to buffers the lane owns,
/// which it keeps for reuse when cleared; buffers it took are let go with the batch, on the
/// writer's thread.
struct Lane<Record: BitwiseCopyable>: Sendable {
  /// One session's consecutive records: all of `records`.
  private struct Piece: Sendable {
    let session: SessionKey
    let records: RecordBuffer<Record>
    /// Whether the lane owns the buffer (reused after clearing) or took it from a stage.
    let isOwned: Bool
  }

  private var pieces: [Piece] = []
  /// Owned buffers cleared for reuse.
  private var spares: [RecordBuffer<Record>] = []
  private(set) var count = 0

  mutating func append(_ record: Record, session: SessionKey) {
    if let last = pieces.last, last.isOwned, last.session == session {
      last.records.append(record)
    } else {
      let records = spares.popLast() ?? RecordBuffer()
      records.append(record)
      pieces.append(Piece(session: session, records: records, isOwned: true))
    }
    count += 1
  }

  /// Adds `records` as the next piece, without copying: the caller gives the buffer up.
  mutating func append(taking records: RecordBuffer<Record>, session: SessionKey) {
    guard !records.isEmpty else { return }
    pieces.append(Piece(session: session, records: records, isOwned: false))
    count += records.count
  }

  mutating func removeAll() {
    for piece in pieces where piece.isOwned {
      piece.records.removeAll()
      spares.append(piece.records)
    }
    pieces.removeAll(keepingCapacity: true)
    count = 0
  }

  /// Calls `body` once per run of one session's consecutive records, in order.
  func forEachRun(_ body: (SessionKey, RecordBuffer<Record>) throws -> Void) rethrows {
    for piece in pieces { try body(piece.session, piece.records) }
  }
}
