#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Fisher's exact test of a 2×2 table of counts (failed and ok on two sides), two-sided as
/// scipy's `fisher_exact` computes it: the sum of the hypergeometric probabilities of every
/// table with the same margins that is no more likely than the one observed (within a relative
/// 1e-7). Exact for sparse failures, where a normal approximation is not.
///
/// The rarer column (failures, or oks when those are fewer) has K members. A table's
/// probability is taken from sums of K logarithms of the counts themselves, never from
/// `lgamma` of the totals (whose rounding, at a hundred million invocations, is already 1e-6 of
/// the answer); the sum walks outward from the most likely table with the ratio of neighbouring
/// probabilities and stops once the terms left cannot move it by 1e-17. Past K = 100,000 the
/// pooled two-proportion z-test answers instead: with that many events the normal
/// approximation is exact to many digits, and the exact walk would be long.
enum FisherExactTest {
  /// The largest rarer column the exact test takes; past it, the z-test.
  static let exactLimit = 100_000

  /// The two-sided p-value of `failed1` of `ran1` against `failed2` of `ran2` (each
  /// `failed` at most its `ran`, none negative).
  static func twoSidedP(failed1: Int, ran1: Int, failed2: Int, ran2: Int) -> Double {
    precondition(failed1 >= 0 && failed2 >= 0 && failed1 <= ran1 && failed2 <= ran2)
    let (total, overflow) = ran1.addingReportingOverflow(ran2)
    guard !overflow else {
      return zTestP(failed1: failed1, ran1: ran1, failed2: failed2, ran2: ran2)
    }
    let failures = failed1 + failed2  // at most `total`: no overflow once `total` has none
    guard ran1 > 0, ran2 > 0, failures > 0, failures < total else { return 1 }
    // The rarer column and the first row's count in it.
    let (k, x0) =
      failures <= total - failures ? (failures, failed1) : (total - failures, ran1 - failed1)
    guard k <= exactLimit else {
      return zTestP(failed1: failed1, ran1: ran1, failed2: failed2, ran2: ran2)
    }
    let low = max(0, k - ran2)
    let high = min(k, ran1)
    let (n, kk, r) = (Double(total), Double(k), Double(ran1))
    let mode = min(max(Int((kk + 1) * (r + 1) / (n + 2)), low), high)
    /// log P(x): C(k, x) C(ran2, k − x) / C(total, k) · … as
    /// log C(k, x) + Σ_{i<x} log(ran1 − i) + Σ_{j<k−x} log(ran2 − j) − Σ_{l<k} log(total − l).
    func logProbability(_ x: Int) -> Double {
      var value = lgamma(kk + 1) - lgamma(Double(x) + 1) - lgamma(Double(k - x) + 1)
      for i in 0..<x { value += log(Double(ran1 - i)) }
      for j in 0..<(k - x) { value += log(Double(ran2 - j)) }
      for l in 0..<k { value -= log(Double(total - l)) }
      return value
    }
    let logPeak = logProbability(mode)
    // Terms relative to the peak's; the observed table's, with scipy's tolerance.
    let threshold = exp(logProbability(x0) - logPeak) * (1 + 1e-7)
    /// P(x + 1) / P(x).
    func up(_ x: Int) -> Double {
      let x = Double(x)
      return (kk - x) * (r - x) / ((x + 1) * (n - kk - r + x + 1))
    }
    var sum = 0.0
    // Upward from the mode, then downward from just below it; each side falls monotonically.
    var term = 1.0
    var x = mode
    while true {
      if term <= threshold { sum += term }
      guard x < high else { break }
      term *= up(x)
      x += 1
      if term <= threshold && term < 1e-17 * sum { break }
    }
    term = 1.0
    x = mode
    while x > low {
      term /= up(x - 1)
      x -= 1
      if term <= threshold {
        sum += term
        if term < 1e-17 * sum { break }
      }
    }
    return min(1, sum * exp(logPeak))
  }

  /// The two-sided p-value of the pooled two-proportion z-test, for tables too large to sum.
  private static func zTestP(failed1: Int, ran1: Int, failed2: Int, ran2: Int) -> Double {
    let (f1, n1, f2, n2) = (Double(failed1), Double(ran1), Double(failed2), Double(ran2))
    guard n1 > 0, n2 > 0 else { return 1 }
    let pooled = (f1 + f2) / (n1 + n2)
    let variance = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    guard variance > 0 else { return 1 }
    return 2 * NormalDistribution.survival(abs(f1 / n1 - f2 / n2) / variance.squareRoot())
  }
}
