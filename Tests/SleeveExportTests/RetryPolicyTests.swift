import SleeveExport
import SleeveTestSupport
import Testing

@Suite struct RetryPolicyTests {
  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  @Test("the base wait starts at 1 s, doubles each retry and stops growing at 30 s")
  func baseIntervalGrowsToTheCap() {
    let policy = RetryPolicy()
    let waits = (1...8).map { Self.seconds(policy.baseInterval(beforeRetry: $0)) }
    #expect(waits == [1, 2, 4, 8, 16, 30, 30, 30])
    #expect(Self.seconds(policy.baseInterval(beforeRetry: Int.max)) == 30)
  }

  @Test("each jittered wait stays within ±50% of its base and never above 30 s, and it spreads")
  func jitteredWaitsStayInBounds() {
    let seed: UInt64 = 20_261_201
    var generator = SeededGenerator(seed: seed)
    let policy = RetryPolicy()
    for retry in 1...12 {
      let base = min(pow2(retry - 1), 30)
      var seen: [Double] = []
      for _ in 0..<200 {
        let wait = Self.seconds(policy.interval(beforeRetry: retry, using: &generator))
        seen.append(wait)
        #expect(
          wait >= base * 0.5 - 0.001 && wait <= min(base * 1.5, 30) + 0.001,
          "retry \(retry): wait \(wait) s outside the bounds of base \(base) s (seed \(seed))")
      }
      if retry <= 4 {
        let spread = (seen.max() ?? 0) - (seen.min() ?? 0)
        #expect(spread > base * 0.8, "retry \(retry): jitter barely spreads (seed \(seed))")
      }
    }
  }

  private func pow2(_ exponent: Int) -> Double { (0..<exponent).reduce(1.0) { acc, _ in acc * 2 } }

  @Test("hostile policy values give bounded waits instead of traps")
  func hostileValuesAreClamped() {
    let policy = RetryPolicy(
      initialInterval: .seconds(Int64.max), multiplier: .nan, maxInterval: .seconds(Int64.max),
      randomization: 7)
    let wait = Self.seconds(policy.interval(beforeRetry: Int.max, unit: .infinity))
    #expect(wait >= 0 && wait <= 1e9)
    #expect(RetryPolicy(multiplier: -3).baseInterval(beforeRetry: 5) == .seconds(1))
  }

  @Test("a Retry-After longer than the backoff, within the budget, is waited exactly")
  func retryAfterWithinBudgetIsHonoured() {
    let policy = RetryPolicy(budget: .seconds(10))
    let step = policy.step(afterAttempt: 1, elapsed: .seconds(2), retryAfter: .seconds(5), unit: 0)
    #expect(step == .wait(.seconds(5)))
  }

  @Test("a Retry-After beyond the budget left stops at once, saying so")
  func retryAfterBeyondBudgetStops() {
    let policy = RetryPolicy(budget: .seconds(10))
    let step = policy.step(
      afterAttempt: 1, elapsed: .seconds(4), retryAfter: .seconds(120), unit: 0.5)
    guard case .stop(let reason) = step else {
      Issue.record("expected a stop, got \(step)")
      return
    }
    #expect(reason.contains("retry after 120 s") && reason.contains("6 s left"), "\(reason)")
  }

  @Test("a backoff that would end past the budget stops, and a budget of 0 never retries")
  func budgetEndsTheRetries() {
    let policy = RetryPolicy(budget: .seconds(3))
    #expect(
      policy.step(afterAttempt: 1, elapsed: .zero, retryAfter: nil, unit: 0.5) == .wait(.seconds(1))
    )
    guard
      case .stop = policy.step(afterAttempt: 3, elapsed: .seconds(2), retryAfter: nil, unit: 0.5)
    else {
      Issue.record("a 4 s backoff with 1 s of budget left did not stop")
      return
    }
    guard
      case .stop(let reason) = RetryPolicy(budget: .zero).step(
        afterAttempt: 1, elapsed: .zero, retryAfter: nil, unit: 0.5)
    else {
      Issue.record("a zero budget retried")
      return
    }
    #expect(reason.contains("no retries"))
  }

  @Test("a Retry-After of 0 or in the past (or any shorter than the backoff) waits the backoff")
  func retryAfterNeverShortensTheBackoff() {
    let policy = RetryPolicy(budget: .seconds(600))
    for attempt in 1...8 {
      for unit in [0.0, 0.25, 0.5, 0.99] {
        let backoff = policy.interval(beforeRetry: attempt, unit: unit)
        for asked in [Duration.zero, .milliseconds(1), backoff / 2] {
          let step = policy.step(
            afterAttempt: attempt, elapsed: .zero, retryAfter: asked, unit: unit)
          #expect(
            step == .wait(backoff),
            "attempt \(attempt), jitter \(unit): Retry-After \(asked) gave \(step), not the backoff"
          )
        }
      }
    }
  }
}
