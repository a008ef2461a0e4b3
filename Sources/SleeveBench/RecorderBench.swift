import Foundation
import SleeveCore
import SleeveRecorder
import SleeveStore
import Synchronization

/// The recorder's benchmarks: firing-thread cost against its floor, sustained ingest against
/// plain prepared inserts, and a long session for memory measurement.
enum RecorderBench {
  /// A value the size of a buffered outcome, for the floor measurement.
  struct FloorRecord {
    let fire: UInt64
    let registration: UInt64
    let started: Int64
    let duration: Int64
    let codes: UInt64
    let error: AnyObject?
  }

  /// The floor of one recorded invocation in fires of `handlers` handlers: the clock reads it
  /// needs (one per handler, whose reading also starts the next, plus one per fire for its
  /// start) and one uncontended `Mutex` append of a record of the same size per handler.
  static func floorNanoseconds(handlers: Int, fires: Int, repeats: Int) -> Double {
    let capacity = 65_536
    var initial: [FloorRecord] = []
    initial.reserveCapacity(capacity)
    let buffer = Mutex(initial)
    return bestNanoseconds(per: fires * handlers, repeats: repeats) {
      for fire in 0..<fires {
        var clock = MonotonicClock.nanoseconds()
        for handler in 0..<handlers {
          let start = clock
          clock = MonotonicClock.nanoseconds()
          buffer.withLock { records in
            records.append(
              FloorRecord(
                fire: UInt64(fire), registration: UInt64(handler), started: start,
                duration: clock - start, codes: 0, error: nil))
            if records.count == capacity { records.removeAll(keepingCapacity: true) }
          }
        }
      }
    }
  }

  /// Fires `fires` times into `handlers` plain handlers and exits, for callgrind to count the
  /// firing thread's instructions: `floor` runs only the floor's work (the clock reads and
  /// one `Mutex` append per handler, as ``floorNanoseconds(handlers:fires:repeats:)``),
  /// `recorded` fires a button a session observes, `unrecorded` the same button unobserved.
  /// The writer never runs during the fires (no flush until exit), so the recorded run's
  /// first thread does only what the firing thread does.
  @MainActor
  static func instructionProbe(_ mode: String, handlers: Int, fires: Int) throws {
    switch mode {
    case "floor":
      _ = floorNanoseconds(handlers: handlers, fires: fires, repeats: 1)
    case "recorded", "unrecorded":
      let result = try invocationNanoseconds(
        handlers: handlers, fires: fires, repeats: 1, recorded: mode == "recorded")
      guard result.dropped == 0 else { throw BenchFailure("\(result.dropped) events dropped") }
    default:
      throw BenchFailure("unknown instruction probe \(mode)")
    }
  }

  /// Time per handler invocation for fires of `handlers` plain handlers, recorded or not.
  @MainActor
  static func invocationNanoseconds(handlers: Int, fires: Int, repeats: Int, recorded: Bool)
    throws -> (nanoseconds: Double, dropped: Int)
  {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let recorder = try Recorder(
      path: directory + "/firing.sqlite",
      options: RecorderOptions(
        whenFull: .drop, bufferCapacity: 1 << 23, flushCount: 1 << 23, flushInterval: .seconds(600))
    )
    let session = try recorder.startSession(name: "bench.firing")
    let button = Button(name: "bench", observer: recorded ? session : nil)
    let tally = Tally()
    for _ in 0..<handlers { button.on(.touchUpInside) { _ in tally.count &+= 1 } }
    let nanoseconds = bestNanoseconds(per: fires * handlers, repeats: repeats) {
      for _ in 0..<fires { button.sendActions(for: .touchUpInside) }
    }
    return (nanoseconds, session.droppedEvents)
  }

  /// Recorded handler invocations per second, written to disk (one fire and one outcome row
  /// each), from the first fire until `end()` returns.
  @MainActor
  static func recordedIngest(invocations: Int) async throws -> (perSecond: Double, bytes: Double) {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/ingest.sqlite"
    let recorder = try await Recorder(path: path, options: RecorderOptions(whenFull: .block))
    let session = try await recorder.startSession(name: "bench.ingest")
    let button = Button(name: "bench", observer: session)
    button.on(.touchUpInside) { _ in }
    let start = ContinuousClock.now
    for _ in 0..<invocations { button.sendActions(for: .touchUpInside) }
    try await session.end()
    let seconds = seconds(since: start)
    let bytes = try bytesPerInvocation(path: path, outcomes: invocations)
    return (Double(invocations) / seconds, bytes)
  }

  /// The baseline: the same rows (same schema, same values) inserted with one prepared
  /// statement per table in transactions of 4,096 invocations, through the same libsqlite3.
  static func baselineIngest(invocations: Int) throws -> (perSecond: Double, bytes: Double) {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/baseline.sqlite"
    let connection = try SleeveDatabase.openForWriting(path: path)
    let session: Int64 = 1 << RowID.numberBits
    try connection.execute(
      """
      INSERT INTO sessions (id, uuid, name, started_unix_ns, heartbeat_unix_ns, status,
        durability, host, pid, os, runtime, sleeve_version, sqlite_version)
      VALUES (1, 'baseline', 'baseline', 0, 0, \(RecordCodes.SessionStatus.running.sqlLiteral),
        'batched', 'h', 1, 'os', 'swift',
        '0', '0');
      INSERT INTO controls (id, session_id, name, kind) VALUES (\(session | 1), 1, 'b', 'Button');
      INSERT INTO registrations (id, session_id, control_id, events, kind, handler, is_async,
        site, registered_at_ns) VALUES (\(session | 1), 1, \(session | 1), 64, 'closure', 'h',
        0, 's', 0);
      """)
    let insertFire = try connection.prepare(
      """
      INSERT INTO fires (id, control_id, events, origin, parent_fire_id, depth, at_ns)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      """)
    let insertOutcome = try connection.prepare(
      """
      INSERT INTO outcomes (id, fire_id, registration_id, status, reason, variant, flag_state,
        is_async, started_ns, duration_ns, error_type, error_message)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    let start = ContinuousClock.now
    var next = 0
    let origin = MonotonicClock.nanoseconds()
    while next < invocations {
      let end = min(next + 4_096, invocations)
      try connection.transaction {
        for index in next..<end {
          let at = MonotonicClock.nanoseconds() - origin
          let fire = session | Int64(index + 2)
          try insertFire.bind(fire, at: 1)
          try insertFire.bind(session | 1, at: 2)
          try insertFire.bind(Int64(64), at: 3)
          try insertFire.bind(Int64(1), at: 4)
          try insertFire.bindNull(at: 5)
          try insertFire.bind(Int64(1), at: 6)
          try insertFire.bind(at, at: 7)
          try insertFire.run()
          try insertOutcome.bind(session | Int64(index + 1), at: 1)
          try insertOutcome.bind(fire, at: 2)
          try insertOutcome.bind(session | 1, at: 3)
          try insertOutcome.bind(Int64(0), at: 4)
          for column: Int32 in 5...7 { try insertOutcome.bindNull(at: column) }
          try insertOutcome.bind(Int64(0), at: 8)
          try insertOutcome.bind(at, at: 9)
          try insertOutcome.bind(Int64(120), at: 10)
          try insertOutcome.bindNull(at: 11)
          try insertOutcome.bindNull(at: 12)
          try insertOutcome.run()
        }
      }
      next = end
    }
    let seconds = seconds(since: start)
    let bytes = try bytesPerInvocation(path: path, outcomes: invocations)
    return (Double(invocations) / seconds, bytes)
  }

  /// Records `invocations` handler invocations in one session (for `/usr/bin/time -v`).
  @MainActor
  static func longSession(invocations: Int, path: String) async throws {
    let recorder = try await Recorder(path: path, options: RecorderOptions(whenFull: .block))
    let session = try await recorder.startSession(name: "bench.memory")
    let button = Button(name: "bench", observer: session)
    button.on(.touchUpInside) { _ in }
    for _ in 0..<invocations { button.sendActions(for: .touchUpInside) }
    try await session.end()
  }

  /// The file's size after a checkpoint, divided by the invocations (fire + outcome rows).
  static func bytesPerInvocation(path: String, outcomes: Int) throws -> Double {
    let connection = try Connection(path: path)
    try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    let pages = try connection.scalarInt("PRAGMA page_count") ?? 0
    let pageSize = try connection.scalarInt("PRAGMA page_size") ?? 0
    return Double(pages * pageSize) / Double(outcomes)
  }

  static func scratchDirectory() throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("sleeve-bench-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  static func seconds(since start: ContinuousClock.Instant) -> Double {
    Double(MonotonicClock.nanoseconds(in: start.duration(to: .now))) / 1e9
  }
}

/// The smallest time per item over `repeats` runs of `body`, which processes `items` items.
func bestNanoseconds(per items: Int, repeats: Int, _ body: () -> Void) -> Double {
  var best = Double.infinity
  for _ in 0..<repeats {
    let start = ContinuousClock.now
    body()
    best = min(
      best, Double(MonotonicClock.nanoseconds(in: start.duration(to: .now))) / Double(items))
  }
  return best
}
