/// One run of equal values in a sample walked in ascending order: the value and how many times
/// it occurs (a whole number above 0, in `Double` so that histogram counts of any size fit).
struct ValueRun<Value: Comparable> {
  let value: Value
  let count: Double
}

/// A sample in grouped form: distinct values in ascending order, each with how many times it
/// occurs. The form the rank statistics take (``RankSum``, ``PairwiseDifferences``,
/// ``Percentile/of(grouped:at:)``): raw sorted values are its runs of equal values
/// (``SortedRuns``), a summary histogram is its buckets, each bucket's values tied at its
/// representative value (``init(histogram:scale:)``).
///
/// Counts are `Double`: exact to 2⁵³ (9·10¹⁵ values), and within a part in 10¹⁶ beyond, far
/// below the statistics' own error; a sample never has to be expanded into an array to be
/// ranked, however many values its counts stand for.
struct GroupedSample<Value: Comparable & Sendable>: Sendable {
  /// The distinct values, strictly ascending.
  let values: [Value]
  /// How many times each value occurs, each above 0.
  let counts: [Double]
  /// The sum of ``counts``: the sample's size.
  let total: Double

  /// The sample with these (value, count) pairs, which must be in ascending order of value
  /// (checked: `nil` otherwise, or for a count that is not a finite whole number ≥ 0); equal
  /// neighbours are joined and zero counts dropped.
  init?(_ pairs: [(value: Value, count: Double)]) {
    var values: [Value] = []
    var counts: [Double] = []
    values.reserveCapacity(pairs.count)
    counts.reserveCapacity(pairs.count)
    for (value, count) in pairs {
      guard count >= 0, count.isFinite, count == count.rounded(.down) else { return nil }
      if let last = values.last {
        guard last <= value else { return nil }
        if last == value {
          counts[counts.count - 1] += count
          continue
        }
      }
      guard count > 0 else { continue }
      values.append(value)
      counts.append(count)
    }
    self.init(checked: values, counts)
  }

  /// The runs of `sorted` (ascending, unchecked).
  init(runsOf sorted: [Value]) {
    var values: [Value] = []
    var counts: [Double] = []
    var runs = SortedRuns(sorted)
    while let run = runs.next() {
      values.append(run.value)
      counts.append(run.count)
    }
    self.init(checked: values, counts)
  }

  /// `values` strictly ascending and `counts` above 0, as the caller has made sure.
  init(checked values: [Value], _ counts: [Double]) {
    self.values = values
    self.counts = counts
    total = counts.reduce(0, +)
  }

  /// Whether the sample holds no value.
  var isEmpty: Bool { values.isEmpty }

  /// The runs, ascending.
  func runs() -> Runs { Runs(sample: self) }

  /// The runs of a grouped sample, ascending.
  struct Runs: IteratorProtocol {
    fileprivate let sample: GroupedSample
    private var index = 0

    fileprivate init(sample: GroupedSample) { self.sample = sample }

    mutating func next() -> ValueRun<Value>? {
      guard index < sample.values.count else { return nil }
      defer { index += 1 }
      return ValueRun(value: sample.values[index], count: sample.counts[index])
    }
  }

  /// The same sample with each value mapped by `transform`, which must keep the order (not
  /// necessarily strictly: values it makes equal are joined).
  func mapValues<Other>(_ transform: (Value) -> Other) -> GroupedSample<Other> {
    var values: [Other] = []
    var counts: [Double] = []
    for (value, count) in zip(self.values, self.counts) {
      let mapped = transform(value)
      if let last = values.last, last == mapped {
        counts[counts.count - 1] += count
      } else {
        values.append(mapped)
        counts.append(count)
      }
    }
    return GroupedSample<Other>(checked: values, counts)
  }
}

/// The runs of equal values of an array in ascending order (unchecked), walked without a copy:
/// how raw sorted durations enter the statistics written for grouped samples.
struct SortedRuns<Value: Comparable>: IteratorProtocol {
  private let values: [Value]
  private var index = 0

  init(_ sorted: [Value]) { values = sorted }

  mutating func next() -> ValueRun<Value>? {
    guard index < values.count else { return nil }
    let value = values[index]
    let start = index
    index += 1
    while index < values.count && values[index] == value { index += 1 }
    return ValueRun(value: value, count: Double(index - start))
  }
}
