import Synchronization

/// The time one push has spent retrying, shared by every request it sends, so that the retry
/// budget (`--retry-budget`) bounds the whole push: a collector that answers 503 to every
/// session's request costs the budget once, not once per session and signal.
///
/// A request counts from the start of its first attempt once that attempt failed retryably,
/// until it is delivered or gives up; time when several requests retry at once counts once
/// (the union of their spans, on one monotonic clock). A push whose first requests were
/// retried for part of the budget has the rest left for the requests after them.
///
/// Sendable: its state is behind a `Mutex`.
public final class RetryTime: Sendable {
  private struct State {
    var spent = Duration.zero
    var retrying = 0
    var since: ContinuousClock.Instant?
    var lastEnd: ContinuousClock.Instant?
  }

  private let state = Mutex(State())

  /// No time spent yet: one per push.
  public init() {}

  /// A request whose first attempt started at `start` failed retryably and is retried now.
  func begin(at start: ContinuousClock.Instant) {
    state.withLock { state in
      if state.retrying == 0 {
        // Never count again a span already counted (a request started while another retried).
        state.since = state.lastEnd.map { max($0, start) } ?? start
      }
      state.retrying += 1
    }
  }

  /// A request that `begin` counted was delivered or gave up at `now`.
  func end(at now: ContinuousClock.Instant) {
    state.withLock { state in
      guard state.retrying > 0 else { return }
      state.retrying -= 1
      guard state.retrying == 0, let since = state.since else { return }
      state.spent += max(now - since, .zero)
      state.since = nil
      state.lastEnd = now
    }
  }

  /// The time spent retrying up to `now`, the span still running included.
  func spent(at now: ContinuousClock.Instant) -> Duration {
    state.withLock { state in
      state.spent + (state.since.map { max(now - $0, .zero) } ?? .zero)
    }
  }
}
