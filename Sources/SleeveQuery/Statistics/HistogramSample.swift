import SleeveStore

/// How rank statistics run on summary histograms: every value in one bucket is taken as tied
/// at the bucket's value, the value ``ExponentialHistogram/lowerPercentile(_:)`` gives for it
/// (the bucket's representative, ``ExponentialMapping/representative(of:scale:)``, clamped to
/// the histogram's minimum and maximum; 0 for the zero bucket, clamped the same way). Each value
/// is within the scale's relative error of its bucket's value (1.083% at scale 5), so a rank
/// statistic sees every pair of values more than twice that apart in the right order and
/// takes closer pairs as tied; the shift (Hodges-Lehmann) is the weighted median of the
/// differences of bucket values.
public enum HistogramSample {
  /// What a rank test's method says after its own name when it ran on summary histograms at
  /// `scale`: ` on summary histograms (ties within a bucket, ±1.083%)`.
  public static func methodNote(scale: Int) -> String {
    " on summary histograms (ties within a bucket, "
      + AnswerPlan.bound(ExponentialMapping.relativeError(scale: scale)) + ")"
  }

  /// How the percentiles of a side read from summary histograms at `scale` are defined:
  /// ``AnswerPlan/histogramPercentileMethod`` with the bound.
  public static func percentileMethod(scale: Int) -> String {
    AnswerPlan.histogramPercentileMethod + ", "
      + AnswerPlan.bound(ExponentialMapping.relativeError(scale: scale))
  }
}

extension GroupedSample where Value == Double {
  /// The values of `histogram` grouped by bucket at `scale` (at most the histogram's own: its
  /// buckets are joined 2^(own − scale) at a time, so two histograms compared at their common
  /// scale share their buckets), each bucket's values tied at the value ``HistogramSample``
  /// describes. `nil` when `scale` is above the histogram's or outside
  /// ``ExponentialMapping/scales``. Takes O(buckets) time and memory, whatever the counts.
  init?(histogram: ExponentialHistogram, scale: Int) {
    guard scale <= histogram.scale, ExponentialMapping.scales.contains(scale) else { return nil }
    guard let minimum = histogram.minimum, let maximum = histogram.maximum else {
      self.init(checked: [], [])
      return
    }
    func clamped(_ value: Double) -> Double {
      Swift.min(Swift.max(value, Double(minimum)), Double(maximum))
    }
    var pairs: [(value: Double, count: Double)] = []
    if histogram.zeroCount > 0 { pairs.append((clamped(0), Double(histogram.zeroCount))) }
    let shift = Int64(histogram.scale - scale)
    var bucket: Int64?
    var inBucket = 0.0
    for (position, count) in histogram.counts.enumerated() where count > 0 {
      let index = (histogram.offset + Int64(position)) >> shift
      if index != bucket, let done = bucket {
        pairs.append((clamped(ExponentialMapping.representative(of: done, scale: scale)), inBucket))
        inBucket = 0
      }
      bucket = index
      inBucket += Double(count)
    }
    if let done = bucket {
      pairs.append((clamped(ExponentialMapping.representative(of: done, scale: scale)), inBucket))
    }
    // Bucket values ascend with their index, and clamping keeps the order.
    self.init(pairs)
  }
}
