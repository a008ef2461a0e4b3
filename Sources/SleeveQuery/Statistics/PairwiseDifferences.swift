/// The differences x − y over every pair of two grouped samples (ascending values with their
/// counts, ``GroupedSample``), each counted count(x)·count(y) times, ranked without being
/// formed: O((values₁ + values₂)·128) time and O(values₂) memory, whatever the counts.
///
/// With both samples ascending, a difference never decreases along the first sample and never
/// increases along the second, so how many differences are ≤ t is counted by one walk of both
/// samples. The k-th smallest difference is the smallest difference t whose count exceeds k,
/// found by bisection on the order keys of differences (``DifferenceRanked``).
///
/// Raw durations (`Int64`, ``init(sorted:_:)``) are differenced exactly, in `Int128`
/// (`Int64.max − Int64.min` included), and a percentile between two of them is interpolated
/// exactly and rounded once (``ExactRounding``): near 2^62 ns, where a `Double` is 1,024 ns
/// apart, the shift of 2^62 + 300 against 2^62 − 10^6 is 1,000,300, not 999,936. Summary
/// histograms' bucket values (`Double`) are differenced in `Double`: they are approximations
/// already (±1.083% at scale 5). Counts are `Double` (see ``GroupedSample``), so the count of
/// pairs may pass `Int.max` (two histograms of billions of values each).
struct PairwiseDifferences<Value: DifferenceRanked> {
  private let left: GroupedSample<Value>
  private let right: GroupedSample<Value>
  /// rightFrom[j]: how many values of the second sample are at run j or later (one more entry,
  /// 0, past the last).
  private let rightFrom: [Double]

  /// How many differences there are.
  var count: Double { left.total * right.total }

  /// The differences of grouped `left` against grouped `right`.
  init(grouped left: GroupedSample<Value>, _ right: GroupedSample<Value>) {
    self.left = left
    self.right = right
    var from = [Double](repeating: 0, count: right.counts.count + 1)
    for run in stride(from: right.counts.count - 1, through: 0, by: -1) {
      from[run] = from[run + 1] + right.counts[run]
    }
    rightFrom = from
  }

  /// Percentile `point` (0…100) of the differences, interpolated as ``Percentile`` does (numpy's
  /// default, ``DifferenceRanked/interpolated(from:to:at:)``). There must be at least one
  /// difference.
  func percentile(_ point: Double) -> Double {
    let (lower, fraction) = Percentile.rank(total: count, at: point)
    let low = element(at: lower)
    guard fraction > 0 else { return Value.interpolated(from: low, to: low, at: 0) }
    return Value.interpolated(from: low, to: element(at: lower + 1), at: fraction)
  }

  /// The k-th smallest difference (0-based, a whole number); `k` must be below ``count``.
  func element(at k: Double) -> Value.Difference {
    precondition(k >= 0 && k < count, "difference rank out of range")
    // The smallest difference pairs the first sample's least with the second's greatest.
    var low = Value.orderKey(of: difference(0, right.values.count - 1))
    var high = Value.orderKey(of: difference(left.values.count - 1, 0))
    // Invariant: the count at `high` exceeds k; below `low` it does not.
    while low < high {
      let middle = low + (high - low) / 2
      if countAtMost(Value.difference(ofOrderKey: middle)) > k {
        high = middle
      } else {
        low = middle + 1
      }
    }
    return Value.difference(ofOrderKey: low)
  }

  /// How many differences are ≤ `threshold`.
  func countAtMost(_ threshold: Value.Difference) -> Double {
    // For each x (ascending), the y whose difference is ≤ threshold are a suffix of the second
    // sample, which only shrinks as x grows.
    var start = 0
    var total = 0.0
    for i in 0..<left.values.count {
      while start < right.values.count && difference(i, start) > threshold { start += 1 }
      total += left.counts[i] * rightFrom[start]
    }
    return total
  }

  private func difference(_ i: Int, _ j: Int) -> Value.Difference {
    Value.difference(left.values[i], right.values[j])
  }
}

extension PairwiseDifferences where Value == Int64 {
  /// The exact differences of `left` against `right`, both in ascending order (unchecked).
  init(sorted left: [Int64], _ right: [Int64]) {
    self.init(grouped: GroupedSample(runsOf: left), GroupedSample(runsOf: right))
  }
}
