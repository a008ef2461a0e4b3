import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

@Suite("Several processes", .serialized)
struct ProcessTests {
  @Test("two processes record 50,000 outcomes each into one file: all 100,000 are there")
  func twoProcessesRecordIntoOneFile() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("shared.sqlite")
    let children = try (0..<2).map { _ in
      try ProbeProcess(arguments: ["--db", path, "--fires", "50000"])
    }
    for child in children {
      #expect(try await child.waitForLine(startingWith: "ended") == "ended")
      #expect(await child.waitForExit() == 0)
    }
    let reader = try Inspector(path: path)
    #expect(try reader.count("outcomes") == 100_000)
    #expect(
      try reader.rows("SELECT count(*) FROM outcomes GROUP BY id >> 32") == ["50000", "50000"])
    #expect(try reader.rows("SELECT DISTINCT status FROM sessions") == ["ended"])
    #expect(try reader.text("PRAGMA integrity_check") == "ok")
  }

  @Test(
    "kill -9 mid-recording: the file is intact, the session unterminated, acknowledged fires kept",
    arguments: [true, false])
  func killedRecorderLeavesIntactFile(strict: Bool) async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("killed.sqlite")
    var arguments = ["--db", path, "--fires", "0", "--forever", "--report-every", "500"]
    if strict { arguments.append("--strict") }
    let child = try ProbeProcess(arguments: arguments)
    let acknowledgements = try await child.killHard(after: 4, startingWith: "acknowledged ")
    try #require(acknowledgements.count == 4, "the probe ended before it was killed")
    let acknowledged = Int(acknowledgements.last?.dropFirst("acknowledged ".count) ?? "") ?? 0
    let reader = try Inspector(path: path)
    #expect(try reader.text("PRAGMA integrity_check") == "ok")
    #expect(try reader.count("fires") >= acknowledged)
    #expect(try reader.count("outcomes") >= acknowledged)
    let row = try #require(
      try reader.rows("SELECT status, host, pid, heartbeat_unix_ns FROM sessions").first)
    let columns = row.split(separator: "|").map(String.init)
    let liveness = SessionLiveness.classify(
      status: columns[0], host: columns[1], pid: Int64(columns[2]) ?? 0,
      heartbeatUnixNanoseconds: Int64(columns[3]) ?? 0)
    #expect(liveness == .unterminated)
  }
}
