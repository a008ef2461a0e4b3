import Foundation
import SleeveCore
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

@MainActor
@Suite("Recorded text is bounded")
struct RecordedTextCapTests {
  /// The most UTF-8 bytes any row holds in `column` of `table`.
  func largest(_ column: String, in table: String, _ reader: Inspector) throws -> Int64 {
    try reader.int("SELECT max(length(CAST(\(column) AS BLOB))) FROM \(table)") ?? -1
  }

  @Test("every text a session records is capped in UTF-8 bytes: names 1,024, messages 4,096")
  func everyRecordedTextIsCapped() async throws {
    struct Fused: Error, CustomStringConvertible {
      // One Character of 10 MB: a letter and five million combining marks.
      var description: String { "a" + String(repeating: "\u{301}", count: 5_000_000) }
    }
    let directory = TemporaryDirectory()
    let path = directory.path("caps.sqlite")
    let huge = String(repeating: "é", count: 500_000)  // 1 MB
    let variable = "SLEEVE_CAP_TEST_\(UUID().uuidString.replacingOccurrences(of: "-", with: "_"))"
    // 20 KB: over the cap, and small enough that child processes other tests start while it
    // is set can still be executed (Linux refuses an environment string over 128 KiB).
    setenv(variable, String(repeating: "v", count: 20_000), 1)
    defer { unsetenv(variable) }
    let recorder = try await Recorder(path: path)
    let session = try await recorder.startSession(
      name: huge, tags: (0..<100).map { "\($0)" + huge },
      environment: [variable] + (0..<100).map { "UNSET_\($0)" })
    let key = "k" + huge
    let flags = InMemoryFlagProvider(
      [key: .enabled], definitions: [FlagDefinition(key: key, owner: huge)])
    session.record(flags)
    let button = Button(name: huge, observer: session, flags: flags)
    button.on(.touchUpInside, id: huge) { _ in throw Fused() }
    button.on(.touchUpInside, flag: key) { _ in }
    button.sendActions(for: .touchUpInside)
    flags.set(key, to: .rolledBack(reason: huge), actor: huge)
    try await session.end()

    let reader = try Inspector(path: path)
    let names: [(String, String)] = [
      ("sessions", "name"), ("controls", "name"), ("registrations", "handler"),
      ("registrations", "identifier"), ("registrations", "flag_key"), ("flags", "key"),
      ("flags", "owner"), ("flag_events", "key"), ("flag_events", "actor"),
      ("outcomes", "error_type"),
    ]
    for (table, column) in names {
      let bytes = try largest(column, in: table, reader)
      #expect(bytes > 0 && bytes <= 1_024, "\(table).\(column) holds \(bytes) bytes")
    }
    for (table, column) in [("outcomes", "error_message"), ("flag_events", "reason")] {
      let bytes = try largest(column, in: table, reader)
      #expect(bytes > 4_000 && bytes <= 4_096, "\(table).\(column) holds \(bytes) bytes")
    }
    #expect(try reader.int("SELECT json_array_length(tags_json) FROM sessions") == 64)
    #expect(
      try reader.int("SELECT max(length(CAST(value AS BLOB))) FROM sessions, json_each(tags_json)")
        ?? 0 <= 1_024)
    let value = try reader.int(
      "SELECT length(CAST(json_extract(metadata_json, '$.environment.\(variable)') AS BLOB)) FROM sessions"
    )
    #expect(value ?? 0 > 4_000 && value ?? 0 <= 4_096)
    // What the session reports is what it recorded.
    #expect(session.name.utf8.count <= 1_024)
    #expect(session.metadata.tags.count == 64)
  }

  @Test("a flag key too long to record whole is still found by its full spelling")
  func longFlagKeysMatchAsRecorded() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("longkey.sqlite")
    let key = String(repeating: "f", count: 5_000)
    try SleeveDatabase.openForWriting(path: path).execute(
      """
      INSERT INTO flag_events (session_id, key, state, reason, actor, at_unix_ns)
      VALUES (NULL, '\(RecordedText.capped(key, to: .name))', 'rolledBack', 'r', 'cli', 1)
      """)
    let flags = try DatabaseFlagProvider(path: path)
    #expect(flags.state(of: key) == .rolledBack(reason: "r"))
  }
}
