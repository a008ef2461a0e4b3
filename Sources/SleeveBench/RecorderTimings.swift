import SleeveCore

/// Measures the recorder's time figures in this process and prints them as one line of
/// numbers, for `scripts/bench` to take the median, minimum and maximum of over processes.
/// In order: the floor, the recording overhead per invocation, per extra handler and per fire
/// (ns); unrecorded fires of 1 and 8 handlers, recorded fires of 1 and 8 (ns); baseline and
/// recorder ingest (invocations/s); baseline and recorder bytes per invocation.
@MainActor
enum RecorderTimings {
  /// Prints the line, values separated by spaces.
  static func printValues() async throws {
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

    let invocations = 1_000_000
    let baseline = try RecorderBench.baselineIngest(invocations: invocations)
    let ingest = try await RecorderBench.recordedIngest(invocations: invocations)
    let values = [
      floor, overheadPerInvocation, marginal, fixed, one.quiet, eight.quiet, one.recorded,
      eight.recorded, baseline.perSecond, ingest.perSecond, baseline.bytes, ingest.bytes,
    ]
    Swift.print(values.map { String(describing: $0) }.joined(separator: " "))
  }
}
