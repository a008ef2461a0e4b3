import SleeveStore

/// Floors for answering latency per handler from summaries: every `outcome_summaries` row
/// read by one statement, (a) its blob only fetched, and (b) its blob decoded and merged into
/// its handler's histogram, then p50/p95/p99 per handler, with the store's own
/// `HistogramCoding` and `ExponentialHistogram`. The handler is the registration number (the
/// low 32 bits of its id): in `summaries-db` files, handler h is registration h + 1 in every
/// session, so the floor needs no name lookup. What a query costs beyond these is its
/// per-session work (listing sessions, statements, routes).
enum SummaryFloorBench {
  /// The two floors' spreads, in milliseconds, and the handlers the merge found.
  struct Result {
    var read: LatencyQueryBench.Spread
    var decodeAndMerge: LatencyQueryBench.Spread
    var handlers: Int
  }

  /// `runs` timed runs of each floor on `path`, after one untimed run of each.
  static func measure(path: String, runs: Int) throws -> Result {
    guard runs > 0 else { throw BenchFailure("summary-floor needs at least one run") }
    let connection = try SleeveDatabase.openForReading(path: path)
    let handlers = try decodeAndMerge(connection)
    _ = try read(connection)
    var reads: [Double] = []
    var merges: [Double] = []
    for _ in 0..<runs {
      var start = ContinuousClock.now
      _ = try read(connection)
      reads.append(RecorderBench.seconds(since: start) * 1_000)
      start = ContinuousClock.now
      guard try decodeAndMerge(connection) == handlers else {
        throw BenchFailure("summary-floor found another number of handlers")
      }
      merges.append(RecorderBench.seconds(since: start) * 1_000)
    }
    return Result(
      read: LatencyQueryBench.Spread(reads), decodeAndMerge: LatencyQueryBench.Spread(merges),
      handlers: handlers)
  }

  /// Steps through every summary row, fetching its blob; returns the bytes seen.
  private static func read(_ connection: Connection) throws -> Int {
    let statement = try connection.prepare("SELECT histogram FROM outcome_summaries")
    var bytes = 0
    while try statement.step() { bytes += statement.blob(at: 0)?.count ?? 0 }
    return bytes
  }

  /// Decodes every summary blob and merges it into its handler's histogram, then takes each
  /// handler's p50, p95 and p99; returns the handlers that had rows.
  private static func decodeAndMerge(_ connection: Connection) throws -> Int {
    let statement = try connection.prepare(
      "SELECT registration_id, histogram FROM outcome_summaries")
    var histograms: [ExponentialHistogram?] = []
    while try statement.step() {
      let number = Int(RowID.number(of: statement.int64(at: 0)))
      guard number < 1 << 20, let bytes = statement.blob(at: 1) else {
        throw BenchFailure("summary-floor: a registration number or blob out of its range")
      }
      let histogram = try HistogramCoding.decode(bytes)
      if number >= histograms.count {
        histograms.append(contentsOf: repeatElement(nil, count: number - histograms.count + 1))
      }
      if histograms[number] == nil {
        histograms[number] = histogram
      } else if !histograms[number]!.merge(histogram) {
        throw BenchFailure("summary-floor: histograms of other limits")
      }
    }
    var answered = 0
    for histogram in histograms.compactMap({ $0 }) {
      guard histogram.lowerPercentile(50) != nil, histogram.lowerPercentile(95) != nil,
        histogram.lowerPercentile(99) != nil
      else { continue }
      answered += 1
    }
    return answered
  }
}
