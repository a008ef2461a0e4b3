/// The differences x − y (in `Double`) over every pair of two grouped samples (ascending values
/// with their counts, ``GroupedSample``), each counted count(x)·count(y) times, ranked without
/// being formed: O((values₁ + values₂)·64) time and O(values₂) memory, whatever the counts.
///
/// With both samples ascending, a difference never decreases along the first sample and never
/// increases along the second (rounding of the subtraction is monotone), so how many
/// differences are ≤ t is counted by one walk of both samples. The k-th smallest difference is
/// the smallest `Double` t whose count exceeds k, found by bisection on the 64-bit order of
/// `Double`s: for raw samples (``init(sorted:_:)``: `Double(x) − Double(y)`) the very value that
/// forming and selecting the differences gives, bit for bit (a zero is +0, as a subtraction of
/// equal values gives). Counts are `Double` (see ``GroupedSample``), so the count of pairs may
/// pass `Int.max` (two histograms of billions of values each).
struct PairwiseDifferences {
  private let left: GroupedSample<Double>
  private let right: GroupedSample<Double>
  /// rightFrom[j]: how many values of the second sample are at run j or later (one more entry,
  /// 0, past the last).
  private let rightFrom: [Double]

  /// How many differences there are.
  var count: Double { left.total * right.total }

  /// The differences of `left` against `right`, both in ascending order (unchecked), each
  /// value taken as `Double(value)`.
  init(sorted left: [Int64], _ right: [Int64]) {
    self.init(
      grouped: GroupedSample(runsOf: left).mapValues(Double.init),
      GroupedSample(runsOf: right).mapValues(Double.init))
  }

  /// The differences of grouped `left` against grouped `right`.
  init(grouped left: GroupedSample<Double>, _ right: GroupedSample<Double>) {
    self.left = left
    self.right = right
    var from = [Double](repeating: 0, count: right.counts.count + 1)
    for run in stride(from: right.counts.count - 1, through: 0, by: -1) {
      from[run] = from[run + 1] + right.counts[run]
    }
    rightFrom = from
  }

  /// Percentile `point` (0…100) of the differences, interpolated as ``Percentile`` does (numpy's
  /// default); the same `Double` as `Percentile.of` over every difference formed. There must be
  /// at least one difference.
  func percentile(_ point: Double) -> Double {
    let (lower, fraction) = Percentile.rank(total: count, at: point)
    let low = element(at: lower)
    guard fraction > 0 else { return low }
    return Percentile.between(low, element(at: lower + 1), at: fraction)
  }

  /// The k-th smallest difference (0-based, a whole number); `k` must be below ``count``.
  func element(at k: Double) -> Double {
    precondition(k >= 0 && k < count, "difference rank out of range")
    // The smallest difference pairs the first sample's least with the second's greatest.
    var low = Self.orderKey(difference(0, right.values.count - 1))
    var high = Self.orderKey(difference(left.values.count - 1, 0))
    // Invariant: the count at `high` exceeds k; below `low` it does not.
    while low < high {
      let middle = low + (high - low) / 2
      if countAtMost(Self.value(ofKey: middle)) > k {
        high = middle
      } else {
        low = middle + 1
      }
    }
    let value = Self.value(ofKey: low)
    return value == 0 ? 0 : value
  }

  /// How many differences are ≤ `threshold`.
  func countAtMost(_ threshold: Double) -> Double {
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

  private func difference(_ i: Int, _ j: Int) -> Double {
    left.values[i] - right.values[j]
  }

  /// `value`'s place in the order of `Double`s (−∞ … −0, +0 … +∞) as an unsigned key.
  static func orderKey(_ value: Double) -> UInt64 {
    let bits = value.bitPattern
    return bits >> 63 == 1 ? ~bits : bits | 1 << 63
  }

  /// The `Double` at order key `key`.
  static func value(ofKey key: UInt64) -> Double {
    Double(bitPattern: key >> 63 == 1 ? key & ~(1 << 63) : ~key)
  }
}
