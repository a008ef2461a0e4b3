import Foundation
import SleeveStore

/// Merge throughput: `SessionMerger` copying one recorded session into an empty database,
/// against the floor, a plain `INSERT … SELECT` of the same rows through `ATTACH` with no id
/// rewriting and no checks, in one transaction. Best of three runs each, fresh files each run.
enum MergeBench {
  static func printTable(outcomes: Int) throws {
    let directory = try RecorderBench.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let input = directory + "/input.sqlite"
    try LatencyFixture.write(outcomes: outcomes, handlers: 10, path: input)
    var run = 0
    func freshTarget() throws -> Connection {
      run += 1
      return try SleeveDatabase.openForWriting(path: directory + "/out-\(run).sqlite")
    }
    var merged = Double.infinity
    var plain = Double.infinity
    for _ in 0..<3 {
      let mergeTarget = try freshTarget()
      var start = ContinuousClock.now
      let report = try SessionMerger(target: mergeTarget).merge(
        path: input, includeUnterminated: false)
      merged = min(merged, RecorderBench.seconds(since: start))
      guard report.outcomes == outcomes else {
        throw BenchFailure("merge copied \(report.outcomes) of \(outcomes) outcomes")
      }
      let plainTarget = try freshTarget()
      start = ContinuousClock.now
      try plainCopy(from: input, into: plainTarget)
      plain = min(plain, RecorderBench.seconds(since: start))
    }
    print(
      "| outcomes | sleeve merge (s) | outcomes/s | plain INSERT … SELECT (s) | outcomes/s | ratio |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    print(
      "| \(outcomes) | \(String(format: "%.2f", merged)) | "
        + "\(String(format: "%.0f", Double(outcomes) / merged)) | "
        + "\(String(format: "%.2f", plain)) | "
        + "\(String(format: "%.0f", Double(outcomes) / plain)) | "
        + "\(String(format: "%.2fx", merged / plain)) |")
  }

  private static func plainCopy(from input: String, into target: Connection) throws {
    let attach = try target.prepare("ATTACH DATABASE ? AS input")
    try attach.bind(input, at: 1)
    try attach.run()
    try target.transaction {
      for table in ["sessions", "controls", "registrations", "fires", "outcomes", "flags"] {
        try target.execute("INSERT INTO main.\(table) SELECT * FROM input.\(table)")
      }
    }
    try target.execute("DETACH DATABASE input")
  }
}
