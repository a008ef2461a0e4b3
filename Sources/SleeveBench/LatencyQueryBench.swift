import SleeveQuery

/// The latency query in process, without process start, file open or output: what
/// `sleeve latency --session all --by handler` spends answering (`latency-query`).
enum LatencyQueryBench {
  /// The median, smallest and largest of the timed runs, in milliseconds, and the groups
  /// the answer had.
  struct Result {
    var medianMilliseconds: Double
    var minimumMilliseconds: Double
    var maximumMilliseconds: Double
    var groups: Int
  }

  /// Opens `path` once, runs the query for p50, p95 and p99 per handler over every session
  /// once untimed (to warm SQLite's cache and the allocator, as a second query of a process
  /// would find them) and then `runs` times, timing each run alone.
  static func measure(path: String, method: AnswerMethod, runs: Int) throws -> Result {
    guard runs > 0 else { throw BenchFailure("latency-query needs at least one run") }
    let database = try QueryDatabase(path: path)
    var filter = QueryFilter()
    filter.session = .all
    filter.method = method
    let percentiles: [Double] = [50, 95, 99]
    let groups = try database.latency(matching: filter, by: .handler, percentiles: percentiles)
      .count
    var milliseconds: [Double] = []
    for _ in 0..<runs {
      let start = ContinuousClock.now
      let rows = try database.latency(matching: filter, by: .handler, percentiles: percentiles)
      milliseconds.append(RecorderBench.seconds(since: start) * 1_000)
      guard rows.count == groups else {
        throw BenchFailure("latency-query answered \(rows.count) groups, then \(groups)")
      }
    }
    milliseconds.sort()
    let middle = milliseconds.count / 2
    return Result(
      medianMilliseconds: milliseconds.count % 2 == 1
        ? milliseconds[middle] : (milliseconds[middle - 1] + milliseconds[middle]) / 2,
      minimumMilliseconds: milliseconds[0],
      maximumMilliseconds: milliseconds[milliseconds.count - 1],
      groups: groups)
  }
}
