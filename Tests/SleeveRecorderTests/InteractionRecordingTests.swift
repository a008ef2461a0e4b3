import SleeveCore
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

/// The `interactions` and `registration_lifetimes` rows (Migrations/0004) through the recorder.
@Suite("Interaction and lifetime recording")
struct InteractionRecordingTests {
  @Test("a tap, typing and a nested tap are written as interactions naming their fire rows")
  func interactionsNameTheirFires() async throws {
    let directory = TemporaryDirectory()
    let recorder = try await Recorder(path: directory.path("interactions.sqlite"))
    let session = try await recorder.startSession(name: "interactions")
    await MainActor.run {
      let pay = Button(name: "pay", observer: session)
      let inner = Button(name: "inner", observer: session)
      let code = TextField(name: "code", observer: session)
      pay.on(.touchUpInside) { _ in inner.tap() }
      pay.tap()
      code.type("ab")
      pay.isEnabled = false
      pay.tap()
    }
    try await session.end()
    let reader = try Inspector(path: recorder.path)
    let base = session.rowID << 32
    #expect(
      try reader.rows(
        """
        SELECT c.name, i.gesture, i.was_enabled, i.depth, i.first_fire_id - \(base),
          i.last_fire_id - \(base), i.fire_count, i.ended_ns >= i.at_ns
        FROM interactions i JOIN controls c ON c.id = i.control_id ORDER BY i.id
        """) == [
          "inner|tap|1|2|3|5|3|1", "pay|tap|1|1|1|6|3|1", "code|type|1|1|7|10|4|1",
          "pay|tap|0|1|11|13|3|1",
        ])
    // The rule the migration states picks exactly the interaction's own fires.
    #expect(
      try reader.rows(
        """
        SELECT count(*) FROM interactions i JOIN fires f ON f.id BETWEEN i.first_fire_id
          AND i.last_fire_id AND f.control_id = i.control_id AND f.depth = i.depth
          AND f.origin = 0
        GROUP BY i.id ORDER BY i.id
        """) == ["3", "3", "4", "3"])
    try await recorder.close()
  }

  @Test("lifetimes order additions and removals exactly, and a replacement names its target")
  func lifetimesOrderRegistryChanges() async throws {
    let directory = TemporaryDirectory()
    let recorder = try await Recorder(path: directory.path("lifetimes.sqlite"))
    let session = try await recorder.startSession(name: "lifetimes")
    await MainActor.run {
      let pay = Button(name: "pay", observer: session)
      let first = pay.on(.touchUpInside) { _ in }  // 1 added
      pay.on(.touchUpInside, id: "submit") { _ in }  // 2 added
      first.cancel()  // 3 removed
      pay.on(.touchUpInside, id: "submit") { _ in }  // 4 removed (replaced), 5 added
      pay.addTarget(Holder.shared, action: Holder.tap, for: .touchDown)  // 6 added
      pay.addTarget(Holder.shared, action: Holder.tap, for: .valueChanged)  // 7 added
    }
    try await session.end()
    let reader = try Inspector(path: recorder.path)
    #expect(
      try reader.rows(
        """
        SELECT r.id & 0xFFFFFFFF, l.added_seq, l.removed_seq, r.removal_reason,
          l.replaced_registration_id & 0xFFFFFFFF
        FROM registrations r JOIN registration_lifetimes l ON l.registration_id = r.id
        ORDER BY r.id
        """) == [
          "1|1|3|cancelled|NULL", "2|2|4|replaced|NULL", "3|5|NULL|NULL|2", "4|6|NULL|NULL|NULL",
          "5|7|NULL|NULL|NULL",
        ])
    try await recorder.close()
  }
}

@MainActor
private final class Holder {
  static let shared = Holder()
  func tap(_ control: Button) {}
}
