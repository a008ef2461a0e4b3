/// The E-divisive statistic of Matteson and James (2014, "A Nonparametric Approach for
/// Multiple Change Point Analysis of Multivariate Data", JASA 109(505)) with α = 1, over one
/// window of a series.
///
/// For a split of Z = x[s..<κ] into X = x[s..<τ] (n values) and Y = x[τ..<κ] (m values):
///
///     Q̂(X, Y) = 2/(n+m) ΣΣ |Xᵢ − Yⱼ| − 2m/((n+m)(n−1)) Σ_{i<k} |Xᵢ − Xₖ|
///               − 2n/((n+m)(m−1)) Σ_{j<k} |Yⱼ − Yₖ|
///
/// (a within-sum's coefficient is 0 when its side has one value). The pairwise sums of every
/// sub-range come from one table of O(L²) prefix sums, so one candidate costs O(L²) for a
/// window of L values, not O(L³).
struct EnergyStatistic: Sendable {
  /// The window's length.
  let count: Int
  /// pairs[a * (count + 1) + b] = Σ_{a ≤ i < k < b} |x_i − x_k|.
  private let pairs: [Double]

  /// The statistic's table over `values`.
  init(_ values: some Collection<Double>) {
    let x = Array(values)
    let n = x.count
    let width = n + 1
    var pairs = [Double](repeating: 0, count: width * width)
    // Column c adds, for each a ≤ c, the distances from x[c] to x[a..<c].
    for c in 0..<n {
      var column = 0.0
      var a = c
      while a >= 0 {
        if a < c { column += abs(x[a] - x[c]) }
        pairs[a * width + c + 1] = pairs[a * width + c] + column
        a -= 1
      }
    }
    self.count = n
    self.pairs = pairs
  }

  /// Σ_{a ≤ i < k < b} |x_i − x_k|.
  private func within(_ a: Int, _ b: Int) -> Double { pairs[a * (count + 1) + b] }

  /// Q̂(x[start..<tau], x[tau..<end]).
  func q(start: Int, tau: Int, end: Int) -> Double {
    let n = Double(tau - start)
    let m = Double(end - tau)
    let total = n + m
    let left = within(start, tau)
    let right = within(tau, end)
    let between = within(start, end) - left - right
    var q = 2 / total * between
    if n > 1 { q -= 2 * m / (total * (n - 1)) * left }
    if m > 1 { q -= 2 * n / (total * (m - 1)) * right }
    return q
  }

  /// The most likely change in `range` (at least 2 values): the τ of the (τ, κ) with
  /// start < τ < κ ≤ end that maximizes Q̂(x[start..<τ], x[τ..<κ]), and that maximum.
  ///
  /// Ties go to the smallest τ, then the smallest κ. As in Apache Otava's search, a pair with
  /// κ < τ + 1 counts as 0, so when every split's Q̂ is negative the candidate is the first
  /// τ ≥ start + 2 with the value 0 (a split no significance test accepts).
  func candidate(in range: Range<Int>) -> (tau: Int, q: Double) {
    let start = range.lowerBound
    let end = range.upperBound
    precondition(end - start >= 2 && end <= count)
    var best = -Double.infinity
    var bestTau = start + 1
    for tau in (start + 1)..<end {
      if tau >= start + 2 && 0 > best {
        best = 0
        bestTau = tau
      }
      for kappa in (tau + 1)...end {
        let value = q(start: start, tau: tau, end: kappa)
        if value > best {
          best = value
          bestTau = tau
        }
      }
    }
    return (bestTau, best)
  }
}
