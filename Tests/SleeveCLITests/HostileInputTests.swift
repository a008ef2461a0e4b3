import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

@testable import SleeveCLI

@Suite("Hostile input", .serialized)
struct HostileInputTests {
  static let readCommands = ["sessions", "errors", "latency", "flags", "report"]
  static let documentedReadExits: Set<Int32> = [0, 65, 66, 74]

  /// Iterations of the file fuzzer: short in the suite, long from scripts/fuzz.
  static var fuzzIterations: Int {
    Int(ProcessInfo.processInfo.environment["SLEEVE_FUZZ_ITERATIONS"] ?? "") ?? 40
  }

  @Test("a truncated database gives a documented exit code and one line, and is not changed")
  func truncatedDatabase() async throws {
    let fixture = try FixtureDatabase.standard()
    let directory = TemporaryDirectory()
    let original = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
    for fraction in [0.1, 0.5, 0.9] {
      let path = directory.path("truncated-\(fraction).sqlite")
      let truncated = original.prefix(Int(Double(original.count) * fraction))
      try truncated.write(to: URL(fileURLWithPath: path))
      for command in Self.readCommands {
        let result = await CLIRunner.run([command, "--db", path, "--session", "all"])
        #expect(
          Self.documentedReadExits.contains(result.exit),
          "\(command) at \(fraction): \(result.exit)")
        if result.exit != 0 {
          #expect(result.error.hasPrefix("Error: "))
          #expect(result.error.split(separator: "\n").count == 1, "\(command): \(result.error)")
        }
      }
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == truncated)
    }
  }

  @Test("names and messages that are not valid UTF-8 are read back repaired, never trapped on")
  func invalidUTF8InTheDatabase() async throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.connection.execute(
      """
      UPDATE sessions SET name = CAST(x'41ff42c3' AS TEXT) WHERE id = 1;
      UPDATE registrations SET handler = CAST(x'ff' || x'fe' AS TEXT) WHERE id = (1 << 32 | 1);
      UPDATE outcomes SET error_message = CAST(x'80818283' AS TEXT) WHERE status = 1;
      """)
    for command in Self.readCommands + ["check"] {
      for format in command == "report" ? ["markdown", "json", "html"] : ["table", "json", "csv"] {
        let result = await CLIRunner.run([
          command, "--db", fixture.path, "--session", "all", "--format", format,
        ])
        #expect([0, 1, 2].contains(result.exit), "\(command) \(format): \(result.error)")
      }
    }
    let sessions = await CLIRunner.run(["sessions", "--db", fixture.path])
    #expect(sessions.out.contains("A\u{FFFD}B\u{FFFD}"))
  }

  @Test("flag keys full of quotes, semicolons and SQL are refused; such filters are plain values")
  func sqlInFlagKeysAndFilters() async throws {
    let fixture = try FixtureDatabase.standard()
    let key = "x'; DROP TABLE flag_events; --"
    let created = await CLIRunner.run([
      "rollback", key, "--db", fixture.path, "--reason", "'); --", "--create",
    ])
    #expect(created.exit == 64)
    #expect(created.error.contains("is not a flag key"), "\(created.error)")
    let flags = await CLIRunner.run([
      "flags", "--db", fixture.path, "--session", "all", "--flag", key,
    ])
    #expect(flags.exit == 0)
    for filter in ["--control", "--handler", "--flag", "--name"] {
      let result = await CLIRunner.run([
        "errors", "--db", fixture.path, "--session", "all", filter, "a\" OR \"1\"=\"1",
      ])
      #expect([0, 66].contains(result.exit), "\(filter): \(result.error)")
    }
    let reader = try Connection(path: fixture.path, mode: .readOnly)
    #expect(try reader.scalarInt("SELECT count(*) FROM flag_events") == 2)
  }

  @Test("randomly damaged databases never crash a read: documented exit codes, files unchanged")
  func fuzzedDatabaseFiles() async throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    let pristine = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
    let directory = TemporaryDirectory()
    let seed: UInt64 = 0xF00D
    var generator = SeededGenerator(seed: seed)
    var codes: [Int32: Int] = [:]
    for iteration in 0..<Self.fuzzIterations {
      var bytes = [UInt8](pristine)
      for _ in 0..<Int.random(in: 1...32, using: &generator) {
        let position = Int.random(in: 0..<bytes.count, using: &generator)
        bytes[position] = UInt8.random(in: 0...255, using: &generator)
      }
      if Bool.random(using: &generator) {
        bytes.removeLast(Int.random(in: 0..<bytes.count / 2, using: &generator))
      }
      let path = directory.path("fuzz-\(iteration).sqlite")
      let damaged = Data(bytes)
      try damaged.write(to: URL(fileURLWithPath: path))
      let command = Self.readCommands[iteration % Self.readCommands.count]
      let result = await CLIRunner.run([command, "--db", path, "--session", "all"])
      codes[result.exit, default: 0] += 1
      #expect(
        Self.documentedReadExits.contains(result.exit),
        "seed \(seed), iteration \(iteration): \(result.exit) \(result.error)")
      if result.exit != 0 {
        #expect(
          result.error.hasPrefix("Error: ") && result.error.split(separator: "\n").count == 1,
          "seed \(seed), iteration \(iteration): \(result.error)")
      }
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: path)) == damaged,
        "seed \(seed), iteration \(iteration) changed the file")
      try? FileManager.default.removeItem(atPath: path)
    }
    // The damage must reach the reader: some files are refused, not every read passes.
    #expect(
      codes.keys.contains { $0 != 0 },
      "seed \(seed): no damaged file was refused (exits \(codes)); the fuzzer damaged nothing")
  }
}
