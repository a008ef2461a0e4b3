import Foundation

/// When a failed request is tried again: exponential backoff with jitter, within a total
/// budget.
///
/// The wait before retry `n` (1 after the first attempt) is
/// `min(initialInterval × multiplierⁿ⁻¹, maxInterval)`, spread by ±`randomization` with a
/// uniform jitter, and never longer than `maxInterval`; a receiver's `Retry-After` may only
/// make it longer. Retries stop once the next one would
/// start after `budget` has elapsed since the first attempt; a budget of 0 means no retries.
///
/// The defaults are the Collector's `otlphttp` `retry_on_failure` (initial 5 s, multiplier 1.5,
/// max interval 30 s, randomization 0.5, max elapsed 300 s) made shorter for a command line
/// that a person or a CI job waits on: a first retry after about 1 s (a collector restarting
/// behind a load balancer is back within seconds), doubling so a few tries cover an outage of
/// tens of seconds, at most 30 s between tries as the Collector, and a 60 s budget the CLI can
/// change (`--retry-budget`).
///
/// Arithmetic is in `Double` seconds, clamped before each conversion, so no input traps.
public struct RetryPolicy: Sendable, Equatable {
  /// The wait before the first retry, before jitter (default 1 s).
  public var initialInterval: Duration
  /// How much each wait grows (default 2; values below 1 count as 1).
  public var multiplier: Double
  /// The longest wait between two attempts, jitter included (default 30 s).
  public var maxInterval: Duration
  /// The jitter: each wait is spread uniformly over ±this fraction (default 0.5, clamped to
  /// 0…1).
  public var randomization: Double
  /// The time after the first attempt's start past which no retry starts (default 60 s;
  /// `.zero`: no retries).
  public var budget: Duration

  /// A policy; the defaults are explained on the type.
  public init(
    initialInterval: Duration = .seconds(1), multiplier: Double = 2,
    maxInterval: Duration = .seconds(30), randomization: Double = 0.5,
    budget: Duration = .seconds(60)
  ) {
    self.initialInterval = initialInterval
    self.multiplier = multiplier
    self.maxInterval = maxInterval
    self.randomization = randomization
    self.budget = budget
  }

  /// The longest budget Sleeve accepts: a day.
  public static let maximumBudget = Duration.seconds(86_400)

  /// What to do after a failed attempt.
  public enum Step: Sendable, Equatable {
    /// Wait this long, then try again.
    case wait(Duration)
    /// Stop: the reason, one line (`retry budget of 2 s spent`).
    case stop(String)
  }

  /// The wait before retry `retry` (1-based) without jitter, capped at `maxInterval`.
  public func baseInterval(beforeRetry retry: Int) -> Duration {
    let cap = max(maxInterval.secondsValue, 0)
    let growth = multiplier.isNaN ? 1 : max(multiplier, 1)
    let exponent = Double(max(retry, 1) - 1)
    let seconds = initialInterval.secondsValue * pow(growth, exponent)
    return .clampedSeconds(seconds.isNaN ? cap : seconds, limit: cap)
  }

  /// The wait before retry `retry` with jitter `unit` (uniform in 0..<1; 0.5 is no spread):
  /// within `base × (1 ± randomization)` and never above `maxInterval`.
  public func interval(beforeRetry retry: Int, unit: Double) -> Duration {
    let base = baseInterval(beforeRetry: retry).secondsValue
    let spread = randomization.isNaN ? 0 : min(max(randomization, 0), 1)
    let u = unit.isFinite ? min(max(unit, 0), 1) : 0.5
    let seconds = base * (1 + spread * (2 * u - 1))
    return .clampedSeconds(seconds, limit: max(maxInterval.secondsValue, 0))
  }

  /// The wait before retry `retry` with its jitter drawn from `generator`.
  public func interval<Generator: RandomNumberGenerator>(
    beforeRetry retry: Int, using generator: inout Generator
  ) -> Duration {
    interval(beforeRetry: retry, unit: Double.random(in: 0..<1, using: &generator))
  }

  /// What to do after attempt `attempt` failed retryably, `elapsed` after the first attempt
  /// started, when the receiver asked for `retryAfter` (or `nil`) and the jitter is `unit`.
  ///
  /// A `Retry-After` can lengthen the wait, never shorten it: the wait is the longer of the
  /// backoff and what the receiver asked for, so `Retry-After: 0` or a date in the past waits
  /// the backoff (a receiver cannot turn the retries into a storm). One that ends past the
  /// budget stops at once, saying so, instead of sleeping past it; a backoff that would end
  /// past the budget stops too.
  public func step(
    afterAttempt attempt: Int, elapsed: Duration, retryAfter: Duration?, unit: Double
  ) -> Step {
    guard budget > .zero else { return .stop("no retries (retry budget 0)") }
    let left = budget - elapsed
    guard left > .zero else { return .stop("retry budget of \(budget.secondsText) spent") }
    let backoff = interval(beforeRetry: attempt, unit: unit)
    if let asked = retryAfter, asked > backoff {
      guard asked <= left else {
        return .stop(
          "the receiver asked to retry after \(asked.secondsText), more than the "
            + "\(left.secondsText) left of the retry budget of \(budget.secondsText)")
      }
      return .wait(asked)
    }
    guard backoff <= left else { return .stop("retry budget of \(budget.secondsText) spent") }
    return .wait(backoff)
  }
}
