import Dispatch
import SleeveCore

extension Duration {
  /// The duration as a Dispatch interval: whole nanoseconds, negative durations as zero,
  /// saturating (so `.seconds(Int64.max)` waits as long as Dispatch can).
  var dispatchInterval: DispatchTimeInterval {
    .nanoseconds(Int(clamping: max(MonotonicClock.nanoseconds(in: self), 0)))
  }
}
