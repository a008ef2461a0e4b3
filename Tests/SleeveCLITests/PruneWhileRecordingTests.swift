import Foundation
import SleeveCore
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// `sleeve prune` beside a recorder writing into the same file.
@Suite("Prune while recording")
struct PruneWhileRecordingTests {
  @Test(
    "a recorder writing while old sessions are pruned loses nothing; VACUUM waits until it ends")
  @MainActor
  func recorderKeepsEveryRow() async throws {
    let (directory, path) = try await PruneCommandTests.demoDatabase(sessions: 2, fires: 1_000)
    _ = directory
    let recorder = try await Recorder(path: path)
    let live = try await recorder.startSession(name: "live")
    let button = Button(name: "pay")
    button.on(.touchUpInside, id: "charge") { _ in }
    live.attach(button)
    var fired = 0
    for round in 0..<4 {
      for _ in 0..<100 { button.sendActions(for: .touchUpInside) }
      fired += 100
      if round == 1 {
        // Pruning while the recorder's buffer holds unwritten rows and its session runs.
        let pruned = await CLIRunner.run([
          "prune", "--db", path, "--keep-last", "0", "--format", "json",
        ])
        #expect(pruned.exit == 0, "\(pruned.error)")
        let json = try PruneCommandTests.json(pruned.out)
        #expect((json["sessions"] as? [Any])?.count == 2)
        #expect(json["reclaim"] as? String == "skipped-while-recording")
        #expect(json["notEnded"] as? [Int] == [3])
        let text = await CLIRunner.run(["prune", "--db", path, "--keep-last", "0"])
        #expect(text.out.contains("Space not reclaimed: session 3 is recording into the file"))
      }
    }
    try await live.end()
    let connection = try SleeveDatabase.openForReading(path: path)
    #expect(
      try connection.scalarInt("SELECT count(*) FROM outcomes WHERE id >> 32 = 3") == Int64(fired))
    #expect(
      try connection.scalarInt("SELECT failed_events + dropped_events FROM sessions WHERE id = 3")
        == 0)
    #expect(try connection.scalarInt("SELECT count(*) FROM outcomes WHERE id >> 32 < 3") == 0)
    // Once it has ended, a prune with nothing left to delete gives the space back (the
    // recorder reused only some of the freed pages).
    #expect((try connection.scalarInt("PRAGMA freelist_count") ?? 0) > 0)
    let later = try PruneCommandTests.json(
      await CLIRunner.run(["prune", "--db", path, "--keep-last", "1", "--format", "json"]).out)
    #expect(later["reclaim"] as? String == "vacuumed")
    #expect(try connection.scalarInt("PRAGMA freelist_count") == 0)
  }
}
