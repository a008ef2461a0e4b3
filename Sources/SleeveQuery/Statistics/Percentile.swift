/// Exact percentiles by linear interpolation between closest ranks: numpy's default method
/// (`linear`, Hyndman and Fan type 7), the same definition as SQLite's `percentile()`.
///
/// For sorted values x₀…xₙ₋₁ and p in 0…100, the rank is h = (n − 1)·p/100 and the result is
/// x⌊h⌋ + (h − ⌊h⌋)·(x⌊h⌋₊₁ − x⌊h⌋). For {1,4,6,7,8,9,11,11,11}: p15 = 4.4, p20 = 5.2.
/// Interpolation is in `Double`, so any values (`Int64.min` to `Int64.max`) give a result.
public enum Percentile {
  /// The method's name, as printed in reports.
  public static let method = "linear interpolation between closest ranks (numpy default, type 7)"

  /// The percentiles `points` (each 0…100) of `values`, computed by selection (no full sort);
  /// `nil` for an empty set. `values` is reordered.
  public static func of(_ values: inout [Int64], at points: [Double]) -> [Double]? {
    guard !values.isEmpty else { return nil }
    return values.withUnsafeMutableBufferPointer { buffer in
      points.map { point in interpolated(in: buffer, at: point, Double.init) }
    }
  }

  /// The percentiles `points` of `values` (which it reorders), as for `Int64` values.
  static func of(_ values: inout [Double], at points: [Double]) -> [Double]? {
    guard !values.isEmpty else { return nil }
    return values.withUnsafeMutableBufferPointer { buffer in
      points.map { point in interpolated(in: buffer, at: point) { $0 } }
    }
  }

  /// Whether a percentile is too extreme for `count` values to support: n < 1/(1 − p).
  ///
  /// The rule holds at p100 too, where 1/(1 − p) is infinite: no sample supports the
  /// population's maximum (p99.999 already needs 100,000 values), so p100 is always marked.
  /// The largest value observed is the `max` column, which is never marked.
  public static func isInsufficient(count: Int, point: Double) -> Bool {
    guard point < 100 else { return true }
    return Double(count) * (1 - point / 100) < 1 - 1e-9
  }

  /// Where percentile `point` of `count` values falls: the 0-based rank of its lower order
  /// statistic, and the fraction of the way to the next one (0 when the next is not needed).
  /// Every way of finding the order statistics interpolates with these and ``between(_:_:at:)``.
  static func rank(count: Int, at point: Double) -> (lower: Int, fraction: Double) {
    let (lower, fraction) = rank(total: Double(count), at: point)
    return (Int(lower), fraction)
  }

  /// ``rank(count:at:)`` for a count in `Double` (a grouped sample's, which may pass `Int.max`):
  /// the same rank, a whole number in `Double`, and the same fraction. `total` must be ≥ 1.
  static func rank(total: Double, at point: Double) -> (lower: Double, fraction: Double) {
    let rank = (total - 1) * min(max(point, 0), 100) / 100
    let lower = rank.rounded(.down)
    let fraction = rank - lower
    return fraction > 0 && lower + 1 < total ? (lower, fraction) : (lower, 0)
  }

  /// The percentiles `points` (each 0…100) of a grouped sample (ascending values with their
  /// counts), by the same definition: the same `Double`s as ``of(_:at:)`` over the
  /// sample expanded, found by one walk of the runs per point, O(distinct values) whatever
  /// the counts. `nil` for an empty sample.
  static func of(grouped sample: GroupedSample<Double>, at points: [Double]) -> [Double]? {
    guard !sample.isEmpty else { return nil }
    // The value at 0-based rank `k` (a whole number below the total).
    func value(at k: Double) -> Double {
      var seen = 0.0
      for (value, count) in zip(sample.values, sample.counts) {
        seen += count
        if k < seen { return value }
      }
      return sample.values[sample.values.count - 1]
    }
    return points.map { point in
      let (lower, fraction) = rank(total: sample.total, at: point)
      let low = value(at: lower)
      guard fraction > 0 else { return low }
      return between(low, value(at: lower + 1), at: fraction)
    }
  }

  /// The value `fraction` of the way from `low` to `high`.
  static func between(_ low: Double, _ high: Double, at fraction: Double) -> Double {
    low + fraction * (high - low)
  }

  private static func interpolated<Value: Comparable>(
    in values: UnsafeMutableBufferPointer<Value>, at point: Double,
    _ double: (Value) -> Double
  ) -> Double {
    let (lower, fraction) = rank(count: values.count, at: point)
    let low = Selection.element(at: lower, in: values)
    guard fraction > 0 else { return double(low) }
    // After selection, everything past `lower` is ≥ low; the next order statistic is their minimum.
    var high = values[lower + 1]
    for index in (lower + 2)..<values.count where values[index] < high { high = values[index] }
    return between(double(low), double(high), at: fraction)
  }
}
