import Foundation
import SleeveTestSupport
import Testing

@testable import SleeveStore

/// Stored summaries carry what proves them (Migrations/0009): a damaged, edited, deleted or
/// added summary row is exit 65 naming the session (or the rollup's sessions), never a number.
@Suite struct SummaryChecksumTests {
  /// The answers compared before and after damage: a rollup read, per-session reads (with
  /// failure kinds), and the sessions list (whose counts of a pruned session are only in
  /// `session_summaries`).
  static let queries: [[String]] = [
    ["errors", "--session", "all"],
    ["latency", "--session", "all", "--by", "handler"],
    ["errors", "--session", "all", "--by", "session"],
    ["report", "--session", "all", "--format", "json"],
    ["sessions"],
  ]

  /// A table whose values are flipped, its primary key, and the columns to flip.
  struct Target {
    let table: String
    let key: [String]
    let columns: [String]
  }

  static let targets = [
    Target(
      table: "outcome_summaries", key: ["registration_id", "variant"],
      columns: [
        "registration_id", "variant", "ok", "failed", "owner_released", "skipped", "cancelled",
        "recursion_limit", "scale", "count", "min_ns", "max_ns", "histogram", "histogram",
        "histogram",
      ]),
    Target(
      table: "failure_summaries", key: ["registration_id", "variant", "error_type", "pattern"],
      columns: ["registration_id", "variant", "error_type", "pattern", "count", "sample_message"]),
    Target(
      table: "session_summaries", key: ["session_id"],
      columns: ["session_id", "summarized_unix_ns", "fires", "outcomes"]),
    Target(
      table: "summary_rollups", key: ["block", "identity", "variant"],
      columns: [
        "block", "identity", "control", "handler", "site", "flag_key", "variant", "ok", "failed",
        "owner_released", "skipped", "cancelled", "recursion_limit", "histogram", "histogram",
        "histogram",
      ]),
    Target(
      table: "summary_checksums", key: ["session_id"],
      columns: ["session_id", "rows_digest", "checksum"]),
    Target(table: "rollup_checksums", key: ["block"], columns: ["block", "members", "checksum"]),
  ]

  /// The standard fixture (sessions 1 and 2, rolled up in block 0), summarized.
  static func fixture() throws -> FixtureDatabase {
    let fixture = try FixtureDatabase.standard()
    try fixture.summarizeEnded()
    try fixture.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return fixture
  }

  static func answers(_ path: String) async -> [CLIRunner.Result] {
    var results: [CLIRunner.Result] = []
    for query in queries {
      results.append(await CLIRunner.run([query[0], "--db", path] + query.dropFirst()))
    }
    return results
  }

  /// Flips one byte of column `column` of one row of `target` (the `row`th in key order) in
  /// the file at `path`: a byte of a blob's or text's bytes, or of an integer's 8. `nil` when
  /// the row or a flippable value is not there, or the flipped key collides with another row.
  static func flip(
    _ target: Target, column: String, row: Int, in path: String,
    using random: inout SeededGenerator
  ) throws -> String? {
    let connection = try Connection(path: path)
    let exists = try connection.prepare("SELECT 1 FROM sqlite_master WHERE name = ?")
    try exists.bind(target.table, at: 1)
    guard try exists.step() else { return nil }
    let select = try connection.prepare(
      "SELECT \(column), \(target.key.joined(separator: ", ")) FROM \(target.table) "
        + "ORDER BY \(target.key.joined(separator: ", ")) LIMIT 1 OFFSET \(row)")
    guard try select.step() else { return nil }
    let keys = (1...Int32(target.key.count)).map { select.value(at: $0) }
    let mask = UInt8.random(in: 1...255, using: &random)
    let bound: [UInt8]
    let cast: String
    var description: String
    if let blob = select.blob(at: 0), !blob.isEmpty {
      var bytes = blob
      let index = Int.random(in: 0..<bytes.count, using: &random)
      bytes[index] ^= mask
      (bound, cast) = (bytes, "?")
      description = "blob byte \(index)"
    } else {
      switch select.value(at: 0) {
      case .integer(let value):
        let shift = UInt64(Int.random(in: 0..<8, using: &random) * 8)
        let flipped = UInt64(bitPattern: value) ^ (UInt64(mask) << shift)
        let statement = try connection.prepare(
          "UPDATE OR FAIL \(target.table) SET \(column) = ? WHERE "
            + target.key.map { "\($0) IS ?" }.joined(separator: " AND "))
        try statement.bind([.integer(Int64(bitPattern: flipped))] + keys)  // from 1
        do { try statement.run() } catch { return nil }
        return "\(target.table).\(column) of row \(row): \(value) → \(Int64(bitPattern: flipped))"
      case .text(let text) where !text.isEmpty:
        var bytes = Array(text.utf8)
        let index = Int.random(in: 0..<bytes.count, using: &random)
        bytes[index] ^= mask
        (bound, cast) = (bytes, "CAST(? AS TEXT)")
        description = "text byte \(index)"
      default:
        return nil
      }
    }
    let statement = try connection.prepare(
      "UPDATE OR FAIL \(target.table) SET \(column) = \(cast) WHERE "
        + target.key.map { "\($0) IS ?" }.joined(separator: " AND "))
    try statement.bind(blob: bound, at: 1)
    for (offset, key) in keys.enumerated() {
      try bind(key, at: Int32(offset + 2), of: statement)
    }
    do { try statement.run() } catch { return nil }
    description = "\(target.table).\(column) of row \(row): \(description) ^ \(mask)"
    return description
  }

  static func bind(_ value: SQLValue, at index: Int32, of statement: Statement) throws {
    switch value {
    case .integer(let integer): try statement.bind(integer, at: index)
    case .real(let real): try statement.bind(real, at: index)
    case .text(let text): try statement.bind(text, at: index)
    case .null: try statement.bindNull(at: index)
    }
  }

  @Test(
    "every seeded single-byte flip of a stored summary, rollup or checksum is exit 65 naming a session, never another number"
  )
  func everyFlipIsRefused() async throws {
    let seed: UInt64 = 0x5EED_0015
    var random = SeededGenerator(seed: seed)
    let fixture = try Self.fixture()
    let pristine = await Self.answers(fixture.path)
    #expect(pristine.allSatisfy { $0.exit == 0 }, "\(pristine.map(\.error))")
    let directory = TemporaryDirectory()
    var flips = 0
    var attempts = 0
    while flips < 60 && attempts < 400 {
      attempts += 1
      let target = Self.targets[Int.random(in: 0..<Self.targets.count, using: &random)]
      let column = target.columns[Int.random(in: 0..<target.columns.count, using: &random)]
      let row = Int.random(in: 0..<6, using: &random)
      let path = directory.path("flip-\(attempts).sqlite")
      try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
      guard let flip = try Self.flip(target, column: column, row: row, in: path, using: &random)
      else { continue }
      flips += 1
      let answers = await Self.answers(path)
      let context = "seed \(seed), flip \(flips): \(flip)"
      for (query, (answer, before)) in zip(Self.queries, zip(answers, pristine)) {
        // Refused, in one line naming the session or the rollup's sessions; or (a query that
        // never reads the flipped row) the very same answer.
        if answer.exit == 65 {
          #expect(answer.error.contains("session"), "\(context) \(query): \(answer.error)")
          #expect(answer.error.split(separator: "\n").count == 1, "\(context): \(answer.error)")
        } else {
          #expect(
            answer.exit == 0 && answer.out == before.out,
            "\(context) \(query): exit \(answer.exit)\n\(answer.out)\(answer.error)")
        }
      }
      #expect(answers.contains { $0.exit == 65 }, "\(context): no query refused it")
    }
    #expect(flips == 60, "seed \(seed): only \(flips) flips in \(attempts) attempts")
  }
}

/// The attacks of the issue "Every answer agrees, every event is counted", one by one.
@Suite struct SummaryCrossCheckTests {
  static func expectRefused(
    _ arguments: [String], naming name: String, _ comment: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let result = await CLIRunner.run(arguments)
    #expect(
      result.exit == 65, "\(comment): exit \(result.exit)\n\(result.out)",
      sourceLocation: sourceLocation)
    #expect(
      result.error.contains(name), "\(comment): \(result.error)", sourceLocation: sourceLocation)
    #expect(
      result.error.split(separator: "\n").count == 1, "\(comment): \(result.error)",
      sourceLocation: sourceLocation)
  }

  /// Re-encodes the histogram of `table`'s rows matching `condition` after `edit`, keeping
  /// every column as it is: a blob that still decodes and agrees with count, min and max.
  static func rewriteHistograms(
    _ table: String, where condition: String, in connection: Connection,
    _ edit: (inout ExponentialHistogram) -> Void
  ) throws {
    let key = table == "outcome_summaries" ? "registration_id, variant" : "block, identity, variant"
    let read = try connection.prepare("SELECT \(key), histogram FROM \(table) WHERE \(condition)")
    var rows: [([SQLValue], [UInt8])] = []
    let width: Int32 = table == "outcome_summaries" ? 2 : 3
    while try read.step() {
      rows.append(((0..<width).map { read.value(at: $0) }, read.blob(at: width) ?? []))
    }
    #expect(!rows.isEmpty)
    for (keys, blob) in rows {
      var histogram = try HistogramCoding.decode(blob)
      edit(&histogram)
      let update = try connection.prepare(
        "UPDATE \(table) SET histogram = ? WHERE "
          + key.split(separator: ",").map { "\($0) = ?" }.joined(separator: " AND "))
      try update.bind(blob: HistogramCoding.encode(histogram), at: 1)
      for (offset, value) in keys.enumerated() {
        try SummaryChecksumTests.bind(value, at: Int32(offset + 2), of: update)
      }
      try update.run()
    }
  }

  @Test(
    "a deleted rollup row or a rollup blob edited so it still decodes is exit 65, never an answer")
  func rollupDamageIsRefused() async throws {
    let fixture = try SummaryChecksumTests.fixture()
    let all = ["--db", fixture.path, "--session", "all"]
    #expect(await CLIRunner.run(["errors"] + all).out.contains("charge"))
    try fixture.connection.execute("DELETE FROM summary_rollups WHERE handler = 'charge'")
    await Self.expectRefused(["errors"] + all, naming: "sessions 1–63", "charge's rollup deleted")
    await Self.expectRefused(["report"] + all, naming: "sessions 1–63", "report, charge deleted")
    let edited = try SummaryChecksumTests.fixture()
    try Self.rewriteHistograms(
      "summary_rollups", where: "handler = 'validate'", in: edited.connection
    ) {
      $0.offset += 32  // every value doubled (scale 5: 32 buckets per power of two)
      $0.sum *= 3  // the mean above the maximum
    }
    await Self.expectRefused(
      ["latency", "--db", edited.path, "--session", "all"], naming: "sessions 1–63",
      "validate's rollup doubled")
  }

  @Test(
    "a session's histogram whose offset or sum was altered is exit 65 in latency, diff and check, never moved percentiles"
  )
  func sessionHistogramEditsAreRefused() async throws {
    for (name, edit) in [
      ("offset + 32", { (histogram: inout ExponentialHistogram) in histogram.offset += 32 }),
      ("offset - 64", { (histogram: inout ExponentialHistogram) in histogram.offset -= 64 }),
      ("sum × 2", { (histogram: inout ExponentialHistogram) in histogram.sum *= 2 }),
    ] {
      let fixture = try SummaryChecksumTests.fixture()
      try Self.rewriteHistograms(
        "outcome_summaries", where: "registration_id = (1 << 32) | 1", in: fixture.connection,
        edit)
      let db = ["--db", fixture.path]
      await Self.expectRefused(["latency", "--session", "1"] + db, naming: "session 1", name)
      await Self.expectRefused(
        ["check", "--session", "1", "--max-p99", "1s"] + db, naming: "session 1", name)
      await Self.expectRefused(
        ["diff", "--baseline", "session=1", "--candidate", "session=2"] + db,
        naming: "session 1", name)
    }
  }

  @Test(
    "summary rows that disagree with each other or with session_summaries are exit 65: skipped + 7, outcomes + 100, a phantom registration"
  )
  func crossChecksRefuse() async throws {
    // Each edit, and the readers that must refuse it (the sessions list reads only the
    // session_summaries rows, and answers the rest right).
    let edits: [(String, String, Bool)] = [
      (
        "skipped + 7",
        "UPDATE outcome_summaries SET skipped = skipped + 7 WHERE registration_id = (1 << 32) | 2",
        false
      ),
      (
        "outcomes + 100",
        "UPDATE session_summaries SET outcomes = outcomes + 100 WHERE session_id = 1", true
      ),
      (
        "a phantom registration",
        """
        INSERT INTO outcome_summaries SELECT (1 << 32) | 99, variant, ok, failed, owner_released,
          skipped, cancelled, recursion_limit, scale, count, min_ns, max_ns, histogram
        FROM outcome_summaries WHERE registration_id = (1 << 32) | 2
        """, false
      ),
      ("a summary mark deleted", "DELETE FROM session_summaries WHERE session_id = 1", true),
    ]
    let rolledUp = [
      ["errors", "--session", "all"], ["report", "--session", "all"],
      ["errors", "--session", "all", "--by", "session"], ["sessions"],
    ]
    let clean = try SummaryChecksumTests.fixture()
    var pristine: [CLIRunner.Result] = []
    for query in rolledUp {
      pristine.append(await CLIRunner.run([query[0], "--db", clean.path] + query.dropFirst()))
    }
    for (name, sql, listed) in edits {
      let fixture = try SummaryChecksumTests.fixture()
      try fixture.connection.execute(sql)
      let db = ["--db", fixture.path]
      await Self.expectRefused(
        ["errors", "--session", "all", "--by", "session"] + db, naming: "session 1", name)
      // A rollup read answers from the rollup, which still matches its checksum and its
      // members' (the edit did not recompute them): refused, or the very answer of before.
      for (query, before) in zip(rolledUp, pristine) {
        let answer = await CLIRunner.run([query[0]] + db + query.dropFirst())
        #expect(
          answer.exit == 65 || (answer.exit == 0 && answer.out == before.out),
          "\(name) \(query): exit \(answer.exit)\n\(answer.out)\(answer.error)")
      }
      if listed { await Self.expectRefused(["sessions"] + db, naming: "session 1", name) }
      // What the error says to do repairs it: the summaries are written again from raw rows.
      let rebuilt = await CLIRunner.run(["summarize", "--session", "1", "--rebuild"] + db)
      #expect(rebuilt.exit == 0, "\(name): \(rebuilt.error)")
      for (query, before) in zip(rolledUp, pristine) {
        let answer = await CLIRunner.run([query[0]] + db + query.dropFirst())
        #expect(
          answer.exit == 0 && answer.out == before.out, "\(name) rebuilt \(query): \(answer.error)")
      }
    }
  }

  @Test(
    "merge refuses an input session whose summary disagrees with its blob or its checksum: 65 naming the input and session, nothing of it copied"
  )
  func mergeRefusesDamagedSummaries() async throws {
    for (name, sql, legacy) in [
      (
        "count ≠ blob",
        "UPDATE outcome_summaries SET ok = ok + 1, count = count + 1 WHERE registration_id = (2 << 32) | 1",
        false
      ),
      (
        "a phantom registration, no checksums",
        """
        INSERT INTO outcome_summaries SELECT (2 << 32) | 99, variant, ok, failed, owner_released,
          skipped, cancelled, recursion_limit, scale, count, min_ns, max_ns, histogram
        FROM outcome_summaries WHERE registration_id = (2 << 32) | 1;
        UPDATE session_summaries SET outcomes = outcomes * 2 WHERE session_id = 2
        """, true
      ),
      (
        "checksum",
        "UPDATE outcome_summaries SET skipped = skipped + 7 WHERE registration_id = (2 << 32) | 1",
        false
      ),
    ] {
      let input = try SummaryChecksumTests.fixture()
      if legacy { try SummaryLegacyFileTests.asBefore0009(input.connection) }
      try input.connection.execute(sql)
      let directory = TemporaryDirectory()
      let output = directory.path("merged.sqlite")
      let result = await CLIRunner.run(["merge", output, input.path])
      #expect(result.exit == 65, "\(name): exit \(result.exit)\n\(result.out)")
      #expect(
        result.error.contains(input.path) && result.error.contains("session 2"),
        "\(name): \(result.error)")
      #expect(result.error.split(separator: "\n").count == 1, "\(name): \(result.error)")
      // Its one input's first session was copied, its second refused: the transaction of the
      // second rolled back, and the whole input with it (the file it created is removed).
      #expect(!FileManager.default.fileExists(atPath: output), "\(name): \(result.out)")
    }
  }
}

/// Files written before migration 0009 have no checksums.
@Suite struct SummaryLegacyFileTests {
  /// Makes `connection`'s file one an 0008 binary wrote: no checksum tables, no 0009 entry.
  static func asBefore0009(_ connection: Connection) throws {
    try connection.execute(
      """
      DROP TABLE IF EXISTS summary_checksums; DROP TABLE IF EXISTS rollup_checksums;
      DELETE FROM schema_migrations WHERE id = '0009_summary_checksums';
      PRAGMA wal_checkpoint(TRUNCATE)
      """)
  }

  @Test(
    "a file from before 0009 answers the same, is cross-checked without checksums, and is sealed when migrated"
  )
  func legacyFilesAreCrossCheckedAndSealed() async throws {
    let fixture = try SummaryChecksumTests.fixture()
    let expected = await SummaryChecksumTests.answers(fixture.path)
    try Self.asBefore0009(fixture.connection)
    let legacy = await SummaryChecksumTests.answers(fixture.path)
    #expect(legacy.map(\.out) == expected.map(\.out))
    // Cross-checks that need no checksum: counts against session_summaries, registrations.
    for (name, sql) in [
      (
        "skipped + 7",
        "UPDATE outcome_summaries SET skipped = skipped + 7 WHERE registration_id = (1 << 32) | 1"
      ),
      (
        "a phantom registration",
        "UPDATE outcome_summaries SET registration_id = (1 << 32) | 99 WHERE registration_id = (1 << 32) | 1"
      ),
    ] {
      let copy = TemporaryDirectory()
      let path = copy.path("legacy.sqlite")
      try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
      try Connection(path: path).execute(sql)
      await SummaryCrossCheckTests.expectRefused(
        ["errors", "--db", path, "--session", "all"], naming: "session 1", name)
    }
    // Migrating seals every session whose rows pass those checks, and rebuilds the rollups.
    let migrated = await CLIRunner.run(["migrate", "--db", fixture.path])
    #expect(migrated.exit == 0, "\(migrated.error)")
    #expect(try fixture.connection.scalarInt("SELECT count(*) FROM summary_checksums") == 2)
    #expect(try fixture.connection.scalarInt("SELECT count(*) FROM rollup_checksums") == 1)
    let sealed = await SummaryChecksumTests.answers(fixture.path)
    #expect(sealed.map(\.out) == expected.map(\.out))
    try fixture.connection.execute(
      "UPDATE outcome_summaries SET skipped = skipped + 1, ok = ok WHERE registration_id = (2 << 32) | 1"
    )
    await SummaryCrossCheckTests.expectRefused(
      ["errors", "--db", fixture.path, "--session", "2"], naming: "session 2", "after sealing")
  }

  @Test(
    "prune checks a session's summaries before they become its only record, and its checksum holds after"
  )
  func pruneChecksFirst() async throws {
    let fixture = try SummaryChecksumTests.fixture()
    let before = await CLIRunner.run(["errors", "--db", fixture.path, "--session", "all"])
    try fixture.connection.execute(
      "UPDATE outcome_summaries SET cancelled = cancelled + 1 WHERE registration_id = (1 << 32) | 2"
    )
    let refused = await CLIRunner.run(["prune", "--db", fixture.path, "--keep-last", "0"])
    #expect(refused.exit == 65, "\(refused.out)\(refused.error)")
    #expect(
      try fixture.connection.scalarInt("SELECT count(*) FROM outcomes WHERE id >> 32 = 1") ?? 0 > 0)
    try fixture.connection.execute(
      "UPDATE outcome_summaries SET cancelled = cancelled - 1 WHERE registration_id = (1 << 32) | 2"
    )
    let pruned = await CLIRunner.run(["prune", "--db", fixture.path, "--keep-last", "0"])
    #expect(pruned.exit == 0, "\(pruned.error)")
    let after = await CLIRunner.run(["errors", "--db", fixture.path, "--session", "all"])
    #expect(after.exit == 0, "\(after.error)")
    // A damaged rollup of pruned sessions is what the error says: 'summarize --rebuild' repairs
    // it from their (checked) summaries, though no session of it can be summarized again.
    try fixture.connection.execute("DELETE FROM summary_rollups WHERE handler = 'charge'")
    await SummaryCrossCheckTests.expectRefused(
      ["errors", "--db", fixture.path, "--session", "all"], naming: "sessions 1–63",
      "a pruned block's rollup row deleted")
    let rebuilt = await CLIRunner.run(["summarize", "--db", fixture.path, "--rebuild"])
    #expect(rebuilt.exit == 0, "\(rebuilt.error)")
    #expect(
      await CLIRunner.run(["errors", "--db", fixture.path, "--session", "all"]).out == after.out)
    #expect(
      after.out.replacingOccurrences(of: " Raw rows are gone (pruned) for sessions 1, 2.", with: "")
        == before.out)
  }
}
