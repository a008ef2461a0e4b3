import SleeveCore

/// Prints the recorder's benchmark tables (markdown).
@MainActor
enum RecorderTables {
  static func print() async throws {
    let repeats = 5
    let fires = 100_000
    let floor = RecorderBench.floorNanoseconds(handlers: 8, fires: fires, repeats: repeats)
    var perFire: [Int: (quiet: Double, recorded: Double)] = [:]
    for handlers in [1, 8] {
      let quiet = try RecorderBench.invocationNanoseconds(
        handlers: handlers, fires: fires, repeats: repeats, recorded: false)
      let recorded = try RecorderBench.invocationNanoseconds(
        handlers: handlers, fires: fires, repeats: repeats, recorded: true)
      guard recorded.dropped == 0 else {
        throw BenchFailure("the recorder dropped \(recorded.dropped) events: figures invalid")
      }
      perFire[handlers] = (
        quiet.nanoseconds * Double(handlers), recorded.nanoseconds * Double(handlers)
      )
    }
    let one = perFire[1]!
    let eight = perFire[8]!
    let overheadPerInvocation = (eight.recorded - eight.quiet) / 8
    let marginal = ((eight.recorded - one.recorded) - (eight.quiet - one.quiet)) / 7
    let fixed = (one.recorded - one.quiet) - marginal
    Swift.print(
      "#### Firing-thread cost of recording (fires of 8 handlers; per-fire and per-handler parts fitted from fires of 1 and 8)"
    )
    Swift.print()
    Swift.print(
      "| floor: clock reads + Mutex append (ns) | recording overhead per invocation (ns) "
        + "| overhead / floor | per extra handler (ns) | per extra handler / floor "
        + "| per fire, fixed (ns) |")
    Swift.print("|---:|---:|---:|---:|---:|---:|")
    Swift.print(
      "| \(formatted(floor)) | \(formatted(overheadPerInvocation)) "
        + "| \(formatted(overheadPerInvocation / floor))x | \(formatted(marginal)) "
        + "| \(formatted(marginal / floor))x | \(formatted(fixed)) |")
    Swift.print()
    Swift.print(
      "Unrecorded fire: \(formatted(one.quiet)) ns (1 handler), \(formatted(eight.quiet)) ns (8); "
        + "recorded: \(formatted(one.recorded)) ns, \(formatted(eight.recorded)) ns.")
    Swift.print()

    let invocations = 1_000_000
    let baseline = try RecorderBench.baselineIngest(invocations: invocations)
    let ingest = try await RecorderBench.recordedIngest(invocations: invocations)
    Swift.print(
      "#### Sustained ingest (\(invocations) invocations: one fire and one outcome row each)")
    Swift.print()
    Swift.print(
      "| baseline: prepared inserts (invocations/s) | recorder (invocations/s) | ratio "
        + "| baseline bytes/invocation | recorder bytes/invocation |")
    Swift.print("|---:|---:|---:|---:|---:|")
    Swift.print(
      "| \(Int(baseline.perSecond)) | \(Int(ingest.perSecond)) "
        + "| \(formatted(ingest.perSecond / baseline.perSecond))x "
        + "| \(formatted(baseline.bytes)) | \(formatted(ingest.bytes)) |")
  }
}
