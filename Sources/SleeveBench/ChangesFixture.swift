import Foundation
import SleeveQuery
import SleeveStore

/// A history of commits on `main` with planted changes, for `sleeve changes` (`changes-db`):
/// one ended, summarized session per commit over the same handlers, each commit's own seed.
///
/// Every fifth handler (0, 5, 10, …) gets slower from a seeded commit by a seeded factor
/// (1.2, 1.3, 1.5 or 2); every fifth from 1 fails 4% instead of 0.5% from a seeded commit; the
/// rest never change. Planted commits are at least 20 commits from either end.
enum ChangesFixture {
  /// One planted change.
  struct Plant {
    let handler: Int
    let metric: ChangeMetric
    let commit: Int
    let factor: Double
  }

  /// The planted changes for `commits` commits of `handlers` handlers (fixed seed).
  static func plants(commits: Int, handlers: Int) -> [Plant] {
    var random = FixtureRandom(seed: 0xC4A_4E5)
    let span = UInt64(max(1, commits - 40))
    let factors = [1.2, 1.3, 1.5, 2.0]
    return (0..<handlers).compactMap { handler in
      switch handler % 5 {
      case 0:
        return Plant(
          handler: handler, metric: .p50, commit: 20 + Int(random.next(span)),
          factor: factors[Int(random.next(4))])
      case 1:
        return Plant(
          handler: handler, metric: .errorRate, commit: 20 + Int(random.next(span)), factor: 8)
      default: return nil
      }
    }
  }

  /// A seed for commit `index`, scrambled by SplitMix64's finalizer: the fixture's LCG started
  /// from consecutive seeds gives streams that differ by a constant, so neighbouring commits
  /// would draw correlated durations (runs of commits a few percent apart, read as changes).
  static func scrambled(_ index: UInt64) -> UInt64 {
    var z = index &+ 0xC4A_0000 &* 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// The commit id of commit `index`.
  static func commit(_ index: Int) -> String {
    let digits = String(index)
    return "c" + String(repeating: "0", count: max(0, 7 - digits.count)) + digits
  }

  /// Writes the history into `path` and the plan (one line `handler-NN metric commit factor`)
  /// into `plan`.
  static func write(
    commits: Int, handlers: Int, outcomesPerHandler: Int, path: String, plan: String
  ) throws {
    let planted = plants(commits: commits, handlers: handlers)
    let connection = try SleeveDatabase.openForWriting(path: path)
    let context = try connection.prepare(
      "INSERT INTO session_context (session_id, branch, commit_sha) VALUES (?, 'main', ?)")
    for index in 0..<commits {
      let session = Int64(index + 1)
      let slow = Dictionary(
        uniqueKeysWithValues: planted.filter { $0.metric == .p50 && index >= $0.commit }
          .map { ($0.handler, $0.factor) })
      let failing = Set(
        planted.filter { $0.metric == .errorRate && index >= $0.commit }.map(\.handler))
      try LatencyFixture.writeSession(
        session, name: "changes benchmark", outcomes: outcomesPerHandler * handlers,
        handlers: handlers, seed: scrambled(UInt64(index)),
        shape: LatencyFixture.Shape(
          slowdown: { slow[$0] ?? 1 }, failuresPerMille: { failing.contains($0) ? 40 : 5 }),
        into: connection)
      try context.bind(session, at: 1)
      try context.bind(commit(index), at: 2)
      try context.run()
      _ = try connection.transaction {
        try SummaryTables.summarize(
          session: session, connection: connection, unixNanoseconds: session)
      }
    }
    let lines = planted.map {
      "\(LatencyFixture.handlerName($0.handler)) \($0.metric.rawValue) \(commit($0.commit)) \($0.factor)\n"
    }
    try writePrivate(lines.joined(), to: plan)
  }

  /// Writes each handler's per-commit p50, as `sleeve changes` computes it, to
  /// `directory/<handler>.csv` (one value a line): the series Apache Otava is timed on.
  static func writeSeries(path: String, directory: String) throws {
    var filter = QueryFilter()
    filter.session = .all
    var options = ChangeOptions()
    options.metrics = [.p50]
    let answer = try QueryDatabase(path: path).changes(matching: filter, options: options)
    for series in answer.series {
      guard case .handler(_, let name) = series.key else { continue }
      let text = series.points.map { "\($0.value)\n" }.joined()
      try writePrivate(text, to: directory + "/" + name + ".csv")
    }
  }

  /// Writes `text` to a new file at `path`, readable by its owner only (0600).
  private static func writePrivate(_ text: String, to path: String) throws {
    guard
      FileManager.default.createFile(
        atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
    else { throw BenchFailure("cannot write \(path)") }
  }
}
