#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Fisher's exact test of a 2×2 table of counts (failed and ok on two sides), two-sided as
/// scipy's `fisher_exact` computes it: the sum of the hypergeometric probabilities of every
/// table with the same margins that is no more likely than the one observed (within a relative
/// 1e-7). Exact for sparse failures, where a normal approximation is not.
enum FisherExactTest {
  /// The two-sided p-value of `failed1` of `ran1` against `failed2` of `ran2` (each
  /// `failed` at most its `ran`, none negative).
  static func twoSidedP(failed1: Int, ran1: Int, failed2: Int, ran2: Int) -> Double {
    precondition(failed1 >= 0 && failed2 >= 0 && failed1 <= ran1 && failed2 <= ran2)
    guard ran1 <= Int.max / 4, ran2 <= Int.max / 4 else {
      return largeTableP(failed1: failed1, ran1: ran1, failed2: failed2, ran2: ran2)
    }
    let total = ran1 + ran2
    let failures = failed1 + failed2
    guard ran1 > 0, ran2 > 0, failures > 0, failures < total else { return 1 }
    let low = max(0, ran1 - (total - failures))
    let high = min(failures, ran1)
    guard high - low <= maximumSupport else {
      return largeTableP(failed1: failed1, ran1: ran1, failed2: failed2, ran2: ran2)
    }
    let denominator = logChoose(total, ran1)
    func logProbability(_ x: Int) -> Double {
      logChoose(failures, x) + logChoose(total - failures, ran1 - x) - denominator
    }
    let observed = logProbability(failed1)
    let threshold = observed + log1p(1e-7)
    var p = 0.0
    for x in low...high {
      let logP = logProbability(x)
      if logP <= threshold { p += exp(logP) }
    }
    return min(1, p)
  }

  /// The most tables the exact sum walks: past it (a million failures in a level), the normal
  /// approximation is exact to many digits and the walk would take seconds.
  static let maximumSupport = 1_000_000

  /// The two-sided p-value of the pooled two-proportion z-test, for tables too large to walk.
  private static func largeTableP(failed1: Int, ran1: Int, failed2: Int, ran2: Int) -> Double {
    let (f1, n1, f2, n2) = (Double(failed1), Double(ran1), Double(failed2), Double(ran2))
    let pooled = (f1 + f2) / (n1 + n2)
    let variance = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    guard variance > 0 else { return 1 }
    return 2 * NormalDistribution.survival(abs(f1 / n1 - f2 / n2) / variance.squareRoot())
  }

  /// log C(n, k).
  private static func logChoose(_ n: Int, _ k: Int) -> Double {
    lgamma(Double(n) + 1) - lgamma(Double(k) + 1) - lgamma(Double(n - k) + 1)
  }
}
