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
    var result = self
    return result.merge(other) ? result : nil
  }

  /// Adds `other` into this histogram, as ``merged(with:)`` does, in place: the span is
  /// widened once and `other`'s counts are added bucket by bucket, so folding many summaries
  /// into one costs their occupied buckets, not a copy per merge. `false` (and nothing changed)
  /// when the two do not share ``maximumScale`` and ``maximumBuckets``.
  public mutating func merge(_ other: ExponentialHistogram) -> Bool {
    guard maximumScale == other.maximumScale, maximumBuckets == other.maximumBuckets else {
      return false
    }
    count += other.count
    sum += other.sum
    zeroCount += other.zeroCount
    if let low = other.minimum { minimum = Swift.min(minimum ?? low, low) }
    if let high = other.maximum { maximum = Swift.max(maximum ?? high, high) }
    guard !other.counts.isEmpty else { return true }
    downscale(by: scale - Swift.min(scale, other.scale))
    var shift = Int64(other.scale - scale)
    let otherLast = other.offset + Int64(other.counts.count) - 1
    if counts.isEmpty {
      // Adopt the other's span at this scale (widening below needs a span to widen).
      offset = other.offset >> shift
      counts = [0]
    }
    let last = offset + Int64(counts.count) - 1
    let change = Self.downscaleNeeded(
      low: Swift.min(offset, other.offset >> shift), high: Swift.max(last, otherLast >> shift),
      buckets: maximumBuckets)
    downscale(by: change)
    shift += Int64(change)
    let low = other.offset >> shift
    let high = otherLast >> shift
    if low < offset {
      counts.insert(contentsOf: repeatElement(0, count: Int(offset - low)), at: 0)
      offset = low
    }
    if high > offset + Int64(counts.count) - 1 {
      counts.append(contentsOf: repeatElement(0, count: Int(high - offset) - counts.count + 1))
    }
    for (position, value) in other.counts.enumerated() where value > 0 {
      counts[Int(((other.offset + Int64(position)) >> shift) - offset)] += value
    }
    trimToOccupied()
    return true
  }

  /// Drops unoccupied buckets at both ends, keeping the canonical form (a span that starts and
  /// ends at occupied buckets).
  private mutating func trimToOccupied() {
    guard let first = counts.firstIndex(where: { $0 > 0 }),
      let last = counts.lastIndex(where: { $0 > 0 })
    else {
      counts = []
      offset = 0
      return
    }
    if first > 0 || last < counts.count - 1 {
      counts = Array(counts[first...last])
      offset += Int64(first)
    }
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
