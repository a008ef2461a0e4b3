import SleeveCore

/// Prints the recorder's benchmark tables (markdown).
@MainActor
enum RecorderTables {
  static func print() async throws {
    let repeats = 5
    let fires = 100_000
    let handlers = 8
    let floor = RecorderBench.floorNanoseconds(invocations: fires * handlers, repeats: repeats)
    let quiet = try RecorderBench.invocationNanoseconds(
      handlers: handlers, fires: fires, repeats: repeats, recorded: false)
    let recorded = try RecorderBench.invocationNanoseconds(
      handlers: handlers, fires: fires, repeats: repeats, recorded: true)
    guard recorded.dropped == 0 else {
      throw BenchFailure("the recorder dropped \(recorded.dropped) events: figures invalid")
    }
    Swift.print("#### Firing-thread cost per recorded handler invocation (8 handlers per fire)")
    Swift.print()
    Swift.print(
      "| floor: clock read + Mutex append (ns) | unrecorded invocation (ns) "
        + "| recorded invocation (ns) | recording overhead (ns) | recorded / floor "
        + "| overhead / floor |")
    Swift.print("|---:|---:|---:|---:|---:|---:|")
    let overhead = recorded.nanoseconds - quiet.nanoseconds
    Swift.print(
      "| \(formatted(floor)) | \(formatted(quiet.nanoseconds)) "
        + "| \(formatted(recorded.nanoseconds)) | \(formatted(overhead)) "
        + "| \(formatted(recorded.nanoseconds / floor))x | \(formatted(overhead / floor))x |")
    Swift.print()

    let invocations = 1_000_000
    let baseline = try RecorderBench.baselineIngest(invocations: invocations)
    let ingest = try await RecorderBench.recordedIngest(invocations: invocations)
    Swift.print("#### Sustained ingest (\(invocations) invocations: one fire and one outcome row each)")
    Swift.print()
    Swift.print(
      "| baseline: prepared inserts (invocations/s) | recorder (invocations/s) | ratio "
        + "| baseline bytes/outcome | recorder bytes/outcome |")
    Swift.print("|---:|---:|---:|---:|---:|")
    Swift.print(
      "| \(Int(baseline.perSecond)) | \(Int(ingest.perSecond)) "
        + "| \(formatted(ingest.perSecond / baseline.perSecond))x "
        + "| \(formatted(baseline.bytes)) | \(formatted(ingest.bytes)) |")
  }
}

extension RecorderTables {
  /// Per-fire and per-handler costs, fitted from fires of 1 and 8 handlers.
  static func breakdown() throws {
    for handlers in [1, 8] {
      let quiet = try RecorderBench.invocationNanoseconds(
        handlers: handlers, fires: 100_000, repeats: 5, recorded: false)
      let recorded = try RecorderBench.invocationNanoseconds(
        handlers: handlers, fires: 100_000, repeats: 5, recorded: true)
      Swift.print(
        "handlers \(handlers): unrecorded \(formatted(quiet.nanoseconds * Double(handlers))) "
          + "recorded \(formatted(recorded.nanoseconds * Double(handlers))) ns/fire")
    }
    let clock = bestNanoseconds(per: 1_000_000, repeats: 5) {
      var sum: Int64 = 0
      for _ in 0..<1_000_000 { sum &+= MonotonicClock.nanoseconds() }
      if sum == 42 { Swift.print("") }
    }
    Swift.print("clock read: \(formatted(clock)) ns")
  }
}
