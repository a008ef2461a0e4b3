import SleeveCore
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

/// A fire's parent is recorded only when it is a fire of the same session: the current fire
/// is process-wide, so a handler of one session's control can send a fire that another session
/// records, and that row must not point at a fire it does not hold.
@MainActor
@Suite("Fire parents")
struct FireParentTests {
  @Test("a nested fire across two sessions records no parent; one inside a session keeps it")
  func parentsStayInTheirSession() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("parents.sqlite")
    let recorder = try await Recorder(path: path)
    let first = try await recorder.startSession(name: "first")
    let second = try await recorder.startSession(name: "second")
    let inner = Button(name: "inner", observer: first)
    let other = Button(name: "other", observer: second)
    inner.on(.valueChanged) { _ in }
    other.on(.touchUpInside) { _ in inner.sendActions(for: .valueChanged) }  // second → first
    let outer = Button(name: "outer", observer: first)
    outer.on(.touchUpInside) { _ in
      inner.sendActions(for: .valueChanged)  // first → first: a real parent
      other.sendActions(for: .touchUpInside)  // first → second → first
    }
    outer.sendActions(for: .touchUpInside)
    try await first.end()
    try await second.end()

    let reader = try Inspector(path: path)
    // No recorded parent points at a fire the file does not hold.
    #expect(
      try reader.count(
        "fires AS f",
        where: "parent_fire_id IS NOT NULL AND NOT EXISTS "
          + "(SELECT 1 FROM fires AS p WHERE p.id = f.parent_fire_id)") == 0)
    // Nor at a fire of another session.
    #expect(
      try reader.count(
        "fires",
        where: "parent_fire_id IS NOT NULL AND parent_fire_id >> \(RowID.numberBits) "
          + "!= id >> \(RowID.numberBits)") == 0)
    let firstID = first.rowID
    let secondID = second.rowID
    // first: outer (no parent), inner under outer, inner under other (not ours: no parent).
    #expect(
      try reader.rows(
        "SELECT c.name, f.parent_fire_id IS NOT NULL FROM fires f JOIN controls c ON c.id = "
          + "f.control_id WHERE f.id >> \(RowID.numberBits) = \(firstID) ORDER BY f.id")
        == ["outer|0", "inner|1", "inner|0"])
    // second: other, sent by outer's handler (a fire of the first session): no parent.
    #expect(
      try reader.rows(
        "SELECT c.name, f.parent_fire_id IS NOT NULL FROM fires f JOIN controls c ON c.id = "
          + "f.control_id WHERE f.id >> \(RowID.numberBits) = \(secondID) ORDER BY f.id")
        == ["other|0"])
  }
}
