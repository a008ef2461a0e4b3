import SleeveBridge
import SleeveCore
import SleeveRecorder
import SleeveTestSupport
import Testing

/// A mirror under a real recorder: what nested, refused and releasing sends leave in the file,
/// and what hostile accessibility identifiers become.
@MainActor
@Suite("Bridge mirrors under a real recorder", .serialized)
struct BridgeRecordingTests {
  @Test("re-entrant platform sends are recorded as nested fires, each with its parent")
  func nestedSendsAreRecordedWithParents() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("nested.sqlite")
    let recorder = try await Recorder(path: path)
    let session = try await recorder.startSession(name: "BridgeNested")
    let button = FakePlatformControl(type: "UIButton", accessibilityIdentifier: "checkout.pay")
    session.attach(button.sleeve.control)
    var sends = 1
    button.on(.touchUpInside) { button in
      if sends < 3 {
        sends += 1
        button.touch(.touchUpInside)
      }
    }
    button.on(.valueChanged) { _ in }
    button.touch(.touchUpInside)
    // A disabled control takes no touches: its send is programmatic, and no interaction.
    button.isEnabled = false
    button.sendActions(for: .valueChanged)
    try await session.end()

    let db = try Inspector(path: path)
    #expect(
      try db.rows("SELECT depth, parent_fire_id IS NULL, origin FROM fires ORDER BY id") == [
        "1|1|0", "2|0|0", "3|0|0", "1|1|1",
      ])
    #expect(
      try db.count(
        "fires AS child JOIN fires AS parent ON child.parent_fire_id = parent.id",
        where: "child.depth = parent.depth + 1") == 2)
    #expect(
      try db.rows(
        "SELECT s.name FROM outcomes o JOIN outcome_statuses s ON s.code = o.status ORDER BY o.id")
        == ["ok", "ok", "ok", "ok"])
    #expect(
      try db.rows("SELECT depth, fire_count FROM interactions ORDER BY depth") == [
        "1|1", "2|1", "3|1",
      ])
  }

  @Test("a send refused at the nesting limit is recorded as a fire whose handler hit the limit")
  func refusedSendIsRecorded() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("runaway.sqlite")
    let recorder = try await Recorder(path: path)
    let session = try await recorder.startSession(name: "BridgeRunaway")
    let button = FakePlatformControl(type: "UIButton", accessibilityIdentifier: "runaway")
    session.attach(button.sleeve.control)
    button.on(.touchUpInside) { button in button.touch(.touchUpInside) }
    // The limit is process-wide: it is restored before the next suspension, so no other test
    // runs under it.
    let standard = Control.nestingLimit
    Control.nestingLimit = 3
    button.touch(.touchUpInside)
    Control.nestingLimit = standard
    try await session.end()

    let db = try Inspector(path: path)
    #expect(try db.count("fires") == 4)
    #expect(
      try db.rows(
        "SELECT s.name FROM outcomes o JOIN outcome_statuses s ON s.code = o.status ORDER BY o.id")
        == ["recursionLimit", "ok", "ok", "ok"])
  }

  @Test("a handler that drops its platform control mid-fire is recorded, then its removal")
  func droppedMidFireIsRecorded() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("dropped.sqlite")
    let recorder = try await Recorder(path: path)
    let session = try await recorder.startSession(name: "BridgeDropped")
    let holder = BridgeReleaseTests.Holder()
    holder.button = FakePlatformControl(type: "UIButton", accessibilityIdentifier: "close")
    session.attach(holder.button!.sleeve.control)
    holder.button!.on(.touchUpInside, id: "close") { _ in holder.button = nil }
    holder.button!.sleeve.control.on(.touchUpInside, id: "after") { _ in }
    holder.button!.touch(.touchUpInside)
    #expect(holder.button == nil)
    try await session.end()

    let db = try Inspector(path: path)
    #expect(try db.count("fires") == 1)
    #expect(try db.count("outcomes") == 2)
    #expect(
      try db.rows("SELECT handler, removal_reason FROM registrations ORDER BY id") == [
        "close|ownerReleased", "after|ownerReleased",
      ])
  }

  /// Accessibility identifiers no one should ship, each with why it is hostile.
  nonisolated static let hostileIdentifiers: [(String, String)] = [
    ("terminal escape and bell", "\u{1B}[31mred\u{1B}[0m\u{07}"),
    ("right-to-left override", "\u{202E}gnp.exe"),
    ("line breaks and tabs", "a\r\nb\tc"),
    ("SQL quote", "x'); DROP TABLE controls; --"),
    (
      "one letter with a thousand combining marks", "e" + String(repeating: "\u{301}", count: 1_000)
    ),
    ("a lone space", " "),
    ("exactly 1,024 bytes", String(repeating: "é", count: 512)),
    ("1 MB of text", String(repeating: "x", count: 1 << 20)),
    ("1 MB of four-byte scalars", String(repeating: "\u{1F600}", count: 1 << 18)),
  ]

  @Test(
    "a hostile accessibility identifier names the mirror and is recorded, capped at 1,024 bytes",
    arguments: hostileIdentifiers)
  func hostileIdentifierIsRecorded(why: String, identifier: String) async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("hostile.sqlite")
    let recorder = try await Recorder(path: path)
    let session = try await recorder.startSession(name: "BridgeHostile")
    let button = FakePlatformControl(type: "UIButton", accessibilityIdentifier: identifier)
    #expect(button.sleeve.control.name == identifier, "\(why)")
    session.attach(button.sleeve.control)
    button.on(.touchUpInside) { _ in }
    button.touch(.touchUpInside)
    try await session.end()

    let db = try Inspector(path: path)
    let names = try db.rows("SELECT name FROM controls")
    #expect(names.count == 1, "\(why)")
    let recorded = names.first ?? ""
    if identifier.utf8.count <= 1_024 {
      #expect(recorded == identifier, "\(why)")
    } else {
      let marker = "… [truncated]"
      #expect(recorded.utf8.count <= 1_024, "\(why)")
      #expect(recorded.hasSuffix(marker), "\(why)")
      let kept = recorded.unicodeScalars.dropLast(marker.unicodeScalars.count)
      #expect(identifier.unicodeScalars.starts(with: kept), "\(why)")
      #expect(kept.count > 200, "\(why)")
    }
    #expect(try db.count("fires") == 1, "\(why)")
  }

  @Test("an empty identifier names the mirror by its platform type, and a huge type is capped")
  func emptyIdentifierAndHugeType() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("types.sqlite")
    let recorder = try await Recorder(path: path)
    let session = try await recorder.startSession(name: "BridgeTypes")
    let hugeType = String(repeating: "T", count: 1 << 20)
    let button = FakePlatformControl(type: hugeType, accessibilityIdentifier: "")
    session.attach(button.sleeve.control)
    button.on(.touchUpInside) { _ in }
    button.touch(.touchUpInside)
    try await session.end()

    let db = try Inspector(path: path)
    let rows = try db.rows(
      "SELECT length(CAST(name AS BLOB)), length(CAST(kind AS BLOB)), name = kind FROM controls")
    #expect(rows == ["1024|1024|1"])
  }
}
