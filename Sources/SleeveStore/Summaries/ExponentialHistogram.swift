/// A base-2 exponential histogram of durations (nanoseconds): OpenTelemetry's bucket mapping
/// (``ExponentialMapping``), a zero bucket for durations of 0 or less, and the count, exact sum,
/// minimum and maximum.
///
/// Every value is bucketed at ``maximumScale`` and shifted down to the histogram's scale, so a
/// histogram depends only on the set of values it holds, never on their order: merging two is
/// exact addition (`merged(h(A), h(B)) == h(A ∪ B)`, and their encodings are equal byte for
/// byte). When the buckets would span more than ``maximumBuckets``, the scale goes down (each
/// step halves the number of buckets) until they fit, and the stated error grows with it.
///
/// ```swift
/// var histogram = ExponentialHistogram()
/// for duration in [1_200_000, 950_000, 31_000_000] as [Int64] { histogram.add(duration) }
/// let p99 = histogram.lowerPercentile(99)  // within ±1.083% of numpy's method='lower'
/// ```
public struct ExponentialHistogram: Equatable, Sendable {
  /// The scale values are bucketed at before any downscale (5: 1.083% relative error).
  public let maximumScale: Int
  /// The most buckets the histogram spans. The default, 2,048, holds every positive `Int64`
  /// duration at scale 5 (63 octaves of 32 buckets), so a histogram of durations never
  /// downscales and its error stays 1.083%; storage is sparse, so unoccupied buckets cost
  /// nothing. (OpenTelemetry's SDK default of 160 spans 32x at scale 5, less than one handler's
  /// latencies usually do, and would downscale to errors of 10% and more.)
  public let maximumBuckets: Int
  /// The current scale: ``maximumScale`` or lower after downscaling.
  public internal(set) var scale: Int
  /// The index of the first bucket in ``counts``.
  public internal(set) var offset: Int64 = 0
  /// Counts of consecutive buckets from ``offset``; empty when no positive value was added.
  public internal(set) var counts: [UInt64] = []
  /// Durations of 0 or less.
  public internal(set) var zeroCount: UInt64 = 0
  /// All values added.
  public internal(set) var count: UInt64 = 0
  /// Their exact sum.
  public internal(set) var sum: Int128 = 0
  /// The smallest value added; `nil` when empty.
  public internal(set) var minimum: Int64?
  /// The largest value added; `nil` when empty.
  public internal(set) var maximum: Int64?

  /// An empty histogram at `maximumScale` (5), spanning at most `maximumBuckets` (2,048).
  public init(maximumScale: Int = 5, maximumBuckets: Int = 2_048) {
    self.maximumScale = min(max(maximumScale, ExponentialMapping.scales.lowerBound), 20)
    self.maximumBuckets = max(maximumBuckets, 2)
    self.scale = self.maximumScale
  }

  /// The relative error of a percentile at the current scale.
  public var relativeError: Double { ExponentialMapping.relativeError(scale: scale) }

  /// Adds one duration.
  public mutating func add(_ value: Int64) {
    count += 1
    sum += Int128(value)
    minimum = Swift.min(minimum ?? value, value)
    maximum = Swift.max(maximum ?? value, value)
    guard value > 0 else {
      zeroCount += 1
      return
    }
    let index = ExponentialMapping.index(of: Double(value), scale: maximumScale)
    addToBucket(index >> Int64(maximumScale - scale), count: 1)
  }

  /// Adds `count` values to the bucket `index` at the current scale, downscaling first when the
  /// bucket would not fit.
  private mutating func addToBucket(_ index: Int64, count amount: UInt64) {
    guard !counts.isEmpty else {
      offset = index
      counts = [amount]
      return
    }
    var index = index
    let last = offset + Int64(counts.count) - 1
    let change = Self.downscaleNeeded(
      low: Swift.min(index, offset), high: Swift.max(index, last), buckets: maximumBuckets)
    if change > 0 {
      downscale(by: change)
      index >>= Int64(change)
    }
    if index < offset {
      counts.insert(contentsOf: repeatElement(0, count: Int(offset - index)), at: 0)
      offset = index
    } else if index > offset + Int64(counts.count) - 1 {
      counts.append(contentsOf: repeatElement(0, count: Int(index - offset) - counts.count + 1))
    }
    counts[Int(index - offset)] += amount
  }

  /// The fewest scale steps down after which buckets `low...high` span at most `buckets`.
  private static func downscaleNeeded(low: Int64, high: Int64, buckets: Int) -> Int {
    var change = 0
    while (high >> Int64(change)) - (low >> Int64(change)) + 1 > Int64(buckets) { change += 1 }
    return change
  }

  /// Lowers the scale by `change`: bucket i joins bucket i >> change.
  private mutating func downscale(by change: Int) {
    guard change > 0 else { return }
    scale -= change
    guard !counts.isEmpty else { return }
    let newOffset = offset >> Int64(change)
    let newLast = (offset + Int64(counts.count) - 1) >> Int64(change)
    var merged = [UInt64](repeating: 0, count: Int(newLast - newOffset) + 1)
    for (position, value) in counts.enumerated() where value > 0 {
      merged[Int(((offset + Int64(position)) >> Int64(change)) - newOffset)] += value
    }
    offset = newOffset
    counts = merged
  }

  /// This histogram and `other` as one: counts added at the lower of the two scales (and lower
  /// still if the union would not fit). Both must share ``maximumScale`` and
  /// ``maximumBuckets`` (`nil` otherwise).
  public func merged(with other: ExponentialHistogram) -> ExponentialHistogram? {
    guard maximumScale == other.maximumScale, maximumBuckets == other.maximumBuckets else {
      return nil
    }
    var result = self
    result.count += other.count
    result.sum += other.sum
    result.zeroCount += other.zeroCount
    if let low = other.minimum { result.minimum = Swift.min(result.minimum ?? low, low) }
    if let high = other.maximum { result.maximum = Swift.max(result.maximum ?? high, high) }
    guard !other.counts.isEmpty else { return result }
    var incoming = other
    let target = Swift.min(result.scale, other.scale)
    result.downscale(by: result.scale - target)
    incoming.downscale(by: incoming.scale - target)
    if result.counts.isEmpty {
      result.offset = incoming.offset
      result.counts = incoming.counts
      result.scale = incoming.scale
      return result
    }
    let low = Swift.min(result.offset, incoming.offset)
    let high = Swift.max(
      result.offset + Int64(result.counts.count) - 1,
      incoming.offset + Int64(incoming.counts.count) - 1)
    let change = Self.downscaleNeeded(low: low, high: high, buckets: maximumBuckets)
    result.downscale(by: change)
    incoming.downscale(by: change)
    for (position, value) in incoming.counts.enumerated() where value > 0 {
      result.addToBucket(incoming.offset + Int64(position), count: value)
    }
    return result
  }

  /// The percentile `point` (0…100) by rank, as numpy's `method='lower'` defines it (the value
  /// at 0-based rank ⌊(n − 1)·p/100⌋ of the sorted values), estimated from its bucket: within
  /// ``relativeError`` of the exact value, up to floating-point rounding (1e-9 relative; the
  /// error reaches the bound at a bucket's edges), and exact when it is in the zero bucket or
  /// the estimate is clamped to the minimum or maximum. `nil` when empty.
  public func lowerPercentile(_ point: Double) -> Double? {
    guard count > 0, let minimum, let maximum else { return nil }
    let clamped = Swift.min(Swift.max(point, 0), 100)
    // numpy: floor((n − 1) · q) with q = p / 100, in that order.
    let rank = UInt64((Double(count - 1) * (clamped / 100)).rounded(.down))
    if rank < zeroCount { return Double(Swift.min(Swift.max(0, minimum), maximum)) }
    var seen = zeroCount
    for (position, value) in counts.enumerated() {
      seen += value
      if rank < seen {
        let estimate = ExponentialMapping.representative(
          of: offset + Int64(position), scale: scale)
        return Swift.min(Swift.max(estimate, Double(minimum)), Double(maximum))
      }
    }
    return Double(maximum)
  }
}
