import SleeveCore
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

/// An interaction row names fires by id (Migrations/0004): when those fires are dropped under
/// a full buffer or lost with a failed batch, the row must not be written as if they existed
/// (lint would call the interaction dead), and every event stays counted. A lifetime names
/// only registrations whose rows exist.
@MainActor
@Suite("Interactions and lifetimes under faults")
struct InteractionFaultTests {
  /// Interaction rows whose fires, by the migration's rule, are not all written.
  static let unwrittenFires = """
    SELECT count(*) FROM interactions i WHERE i.fire_count != (SELECT count(*) FROM fires f
      WHERE f.id BETWEEN i.first_fire_id AND i.last_fire_id AND f.control_id = i.control_id
      AND f.depth = i.depth AND f.origin = 0)
    """
  /// Characters typed per interaction: 202 fires, more than the buffer or a batch holds, so an
  /// interaction's fires always straddle the point where the fault begins.
  static let input = String(repeating: "a", count: 200)
  /// The events one typing produces: 202 fires, one outcome (editingDidEnd), the interaction.
  static let eventsPerTyping = 204

  /// A text field with one handler on `editingDidEnd`, attached, its registration written.
  func field(in session: RecordingSession) async throws -> TextField {
    let field = TextField(name: "code")
    field.on(.editingDidEnd) { _ in }
    session.attach(field)
    try await session.flush()
    return field
  }

  /// Capacity 64 hands each fire over at its end; 1,024 hands over 16 records at a time, so
  /// an interaction can end while some of its fires are still staged (they go first).
  @Test(
    "with policy drop, an interaction whose fires were dropped is dropped too and counted",
    arguments: [(64, 3), (1_024, 12)])
  func droppedFiresDropTheirInteraction(capacity: Int, typings: Int) async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("drop.sqlite")
    let recorder = try await Recorder(
      path: path,
      options: RecorderOptions(
        whenFull: .drop, bufferCapacity: capacity, flushCount: capacity,
        retryTimeout: WaitBounds.unreached))
    let session = try await recorder.startSession(name: "drop")
    let field = try await field(in: session)
    let blocker = try Connection(path: path)
    try blocker.execute("BEGIN IMMEDIATE")  // the writer waits on the lock; the buffer fills
    for _ in 0..<typings { field.type(Self.input) }
    try blocker.execute("COMMIT")
    try await session.end()
    let reader = try Inspector(path: path)
    #expect(session.droppedEvents > 0)
    #expect(try reader.int(Self.unwrittenFires) == 0)
    let written =
      try reader.count("fires") + reader.count("outcomes") + reader.count("interactions")
    #expect(written + session.droppedEvents == typings * Self.eventsPerTyping)
    try await recorder.close()
  }

  @Test("an interaction whose fires were lost with a failed batch is counted failed, not written")
  func lostFiresFailTheirInteraction() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("lost.sqlite")
    let recorder = try await Recorder(
      path: path, options: RecorderOptions(whenFull: .block, bufferCapacity: 32, flushCount: 8))
    let session = try await recorder.startSession(name: "lost")
    let field = try await field(in: session)
    // A fault in one batch only: the batch holding the session's 50th fire fails.
    let injector = try Connection(path: path)
    try injector.execute(
      """
      CREATE TRIGGER injected_fault BEFORE INSERT ON fires WHEN (NEW.id & 4294967295) = 50
      BEGIN SELECT RAISE(ABORT, 'injected fault'); END
      """)
    field.type(Self.input)
    try await session.end()
    let reader = try Inspector(path: path)
    let failed = try #require(try reader.int("SELECT failed_events FROM sessions"))
    #expect(failed > 0)
    #expect(try reader.int(Self.unwrittenFires) == 0)
    #expect(try reader.count("interactions") == 0)
    let written =
      try reader.count("fires") + reader.count("outcomes") + reader.count("interactions")
    #expect(written + Int(failed) + session.droppedEvents == Self.eventsPerTyping)
    try await recorder.close()
  }

  @Test("a replacement of a handler whose row was lost names none, and its own row is written")
  func replacementOfALostRegistrationIsWritten() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("replaced.sqlite")
    let recorder = try await Recorder(path: path)
    let session = try await recorder.startSession(name: "replaced")
    let pay = Button(name: "pay", observer: session)
    try await session.flush()
    // A fault for one batch: the one holding the first registration.
    let injector = try Connection(path: path)
    try injector.execute(
      """
      CREATE TRIGGER injected_fault BEFORE INSERT ON registrations
      BEGIN SELECT RAISE(ABORT, 'injected fault'); END
      """)
    pay.on(.touchUpInside, id: "submit") { _ in }
    try? await session.flush()
    try injector.execute("DROP TRIGGER injected_fault")
    // The second replaces the first by id; its batch must not fail on the lost row.
    pay.on(.touchUpInside, id: "submit") { _ in }
    try await session.end()
    let reader = try Inspector(path: path)
    #expect(try reader.count("registrations") == 1)
    let lifetimes = try reader.rows(
      "SELECT added_seq, replaced_registration_id IS NULL FROM registration_lifetimes")
    #expect(lifetimes == ["3|1"], "\(lifetimes)")
    #expect(
      try reader.count(
        "registration_lifetimes", where: "registration_id NOT IN (SELECT id FROM registrations)")
        == 0)
    // Only the lost batch's events are counted failed: the first registration alone.
    #expect(try reader.int("SELECT failed_events FROM sessions") == 1)
    try await recorder.close()
  }
}
