/// The differences x − y (in `Double`, as `Double(x) - Double(y)`) over every pair of two
/// samples in ascending order, ranked without being formed: m·n differences in O((m + n)·64)
/// time and no memory.
///
/// With both samples sorted, a difference never decreases along the first sample and never
/// increases along the second (conversion to `Double` and rounding of the subtraction are both
/// monotone), so how many differences are ≤ t is counted by one walk of both samples. The k-th
/// smallest difference is the smallest `Double` t whose count exceeds k, found by bisection on
/// the 64-bit order of `Double`s: the very value that forming and selecting the differences
/// gives, bit for bit (a zero is +0, as a subtraction of equal values gives).
struct PairwiseDifferences {
  private let left: [Int64]
  private let right: [Int64]

  /// How many differences there are.
  var count: Int { left.count * right.count }

  /// The differences of `left` against `right`, both in ascending order (unchecked).
  init(sorted left: [Int64], _ right: [Int64]) {
    self.left = left
    self.right = right
  }

  /// Percentile `point` (0…100) of the differences, interpolated as ``Percentile`` does (numpy's
  /// default); the same `Double` as `Percentile.of` over every difference formed. There must be
  /// at least one difference.
  func percentile(_ point: Double) -> Double {
    let (lower, fraction) = Percentile.rank(count: count, at: point)
    let low = element(at: lower)
    guard fraction > 0 else { return low }
    return Percentile.between(low, element(at: lower + 1), at: fraction)
  }

  /// The k-th smallest difference (0-based); `k` must be below ``count``.
  func element(at k: Int) -> Double {
    precondition(k >= 0 && k < count, "difference rank out of range")
    // The smallest difference pairs the first sample's least with the second's greatest.
    var low = Self.orderKey(difference(0, right.count - 1))
    var high = Self.orderKey(difference(left.count - 1, 0))
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
  func countAtMost(_ threshold: Double) -> Int {
    // For each x (ascending), the y whose difference is ≤ threshold are a suffix of the second
    // sample, which only shrinks as x grows.
    var start = 0
    var total = 0
    for i in 0..<left.count {
      while start < right.count && difference(i, start) > threshold { start += 1 }
      total += right.count - start
    }
    return total
  }

  private func difference(_ i: Int, _ j: Int) -> Double {
    Double(left[i]) - Double(right[j])
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
