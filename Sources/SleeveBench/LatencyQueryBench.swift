import SleeveQuery

/// The latency query in process, without process start, file open or output: what
/// `sleeve latency --session all --by handler` spends answering (`latency-query`), and the
/// part of it that lists the selected sessions (`QueryDatabase.sessions(matching:)`).
enum LatencyQueryBench {
  /// Milliseconds of the timed runs of one call.
  struct Spread {
    /// The median (of an even count, the mean of the middle two).
    var median: Double
    /// The fastest run.
    var minimum: Double
    /// The slowest run.
    var maximum: Double

    init(_ milliseconds: [Double]) {
      let sorted = milliseconds.sorted()
      let middle = sorted.count / 2
      median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
      minimum = sorted[0]
      maximum = sorted[sorted.count - 1]
    }
  }

  /// The whole query, the session listing alone, and the groups the answer had.
  struct Result {
    var query: Spread
    var sessionListing: Spread
    var groups: Int
  }

  /// Opens `path` once, runs the query for p50, p95 and p99 per handler over every session
  /// once untimed (to warm SQLite's cache and the allocator, as a second query of a process
  /// would find them) and then `runs` times, timing each run alone, and after each the
  /// session listing alone.
  static func measure(path: String, method: AnswerMethod, runs: Int) throws -> Result {
    guard runs > 0 else { throw BenchFailure("latency-query needs at least one run") }
    let database = try QueryDatabase(path: path)
    var filter = QueryFilter()
    filter.session = .all
    filter.method = method
    let percentiles: [Double] = [50, 95, 99]
    let groups = try database.latency(matching: filter, by: .handler, percentiles: percentiles)
      .count
    var query: [Double] = []
    var listing: [Double] = []
    for _ in 0..<runs {
      var start = ContinuousClock.now
      let rows = try database.latency(matching: filter, by: .handler, percentiles: percentiles)
      query.append(RecorderBench.seconds(since: start) * 1_000)
      guard rows.count == groups else {
        throw BenchFailure("latency-query answered \(rows.count) groups, then \(groups)")
      }
      start = ContinuousClock.now
      _ = try database.sessions(matching: filter)
      listing.append(RecorderBench.seconds(since: start) * 1_000)
    }
    return Result(query: Spread(query), sessionListing: Spread(listing), groups: groups)
  }
}
