/// The Wilcoxon rank sum of one sample within two combined samples, by midranks, with the
/// ties' variance term: the one ranking the Mann-Whitney and van Elteren tests share, for raw
/// samples and grouped ones (``GroupedSample``) alike.
///
/// Ranking walks both samples' runs of equal values (``ValueRun``) together in ascending
/// order: a raw sample is sorted on its own (``RadixSort``, linear time) and walked by
/// ``SortedRuns`` (no combined, tagged array; callers holding sorted samples rank them without
/// a copy, ``init(sorted:_:)``); a grouped sample is walked as it is, in O(distinct values)
/// whatever its counts (``init(grouped:_:)``). A raw sample and the grouped sample of its runs
/// give the same `Double`s, bit for bit: the walk sees the same runs. Only comparisons touch
/// the values, so any `Int64`s rank without overflow; sums are in `Double` (exact to 2⁵³: rank
/// sums of up to about 10⁸ values, and within a part in 10¹⁶ beyond).
struct RankSum {
  /// The sum of the first sample's midranks (1-based) in the combined sample.
  let first: Double
  /// Σ (t³ − t) over the groups of t tied values in the combined sample (0 without ties).
  let tieTerm: Double
  /// The sizes of the two samples.
  let count1: Double
  let count2: Double
  /// The number of distinct values in the combined sample.
  let distinctValues: Int

  /// Ranks `first` among `first` and `second` combined.
  init(_ first: [Int64], _ second: [Int64]) {
    self.init(sorted: RadixSort.sorted(first), RadixSort.sorted(second))
  }

  /// Ranks `left` among `left` and `right` combined; both must be in ascending order (as
  /// ``RadixSort`` leaves them), which is not checked.
  init(sorted left: [Int64], _ right: [Int64]) {
    self.init(runs: SortedRuns(left), SortedRuns(right))
  }

  /// Ranks grouped `left` among `left` and `right` combined.
  init<Value>(grouped left: GroupedSample<Value>, _ right: GroupedSample<Value>) {
    self.init(runs: left.runs(), right.runs())
  }

  /// Ranks the runs of `left` among those of both, each walked once in ascending order.
  private init<Value, Left: IteratorProtocol, Right: IteratorProtocol>(
    runs left: Left, _ right: Right
  ) where Left.Element == ValueRun<Value>, Right.Element == ValueRun<Value> {
    var left = left
    var right = right
    var nextLeft = left.next()
    var nextRight = right.next()
    var placed = 0.0
    var rankSum = 0.0
    var tieTerm = 0.0
    var distinct = 0
    var count1 = 0.0
    var count2 = 0.0
    while true {
      // The smaller of the two runs' values, and how many of each sample hold it.
      let inLeft: Double
      let inRight: Double
      switch (nextLeft, nextRight) {
      case (let l?, let r?) where l.value == r.value:
        (inLeft, inRight) = (l.count, r.count)
        nextLeft = left.next()
        nextRight = right.next()
      case (let l?, let r?) where l.value < r.value:
        (inLeft, inRight) = (l.count, 0)
        nextLeft = left.next()
      case (let l?, nil):
        (inLeft, inRight) = (l.count, 0)
        nextLeft = left.next()
      case (_, let r?):
        (inLeft, inRight) = (0, r.count)
        nextRight = right.next()
      case (nil, nil):
        self.first = rankSum
        self.tieTerm = tieTerm
        self.count1 = count1
        self.count2 = count2
        distinctValues = distinct
        return
      }
      let ties = inLeft + inRight
      // The tied group takes ranks placed + 1 … placed + ties; each gets their mean.
      let midrank = placed + (ties + 1) / 2
      rankSum += inLeft * midrank
      if ties > 1 { tieTerm += ties * ties * ties - ties }
      placed += ties
      count1 += inLeft
      count2 += inRight
      distinct += 1
    }
  }

  /// The rank sum's mean under no difference: n₁(N + 1)/2.
  var nullMean: Double {
    count1 * (count1 + count2 + 1) / 2
  }

  /// The rank sum's variance under no difference, ties corrected:
  /// n₁n₂/12 · ((N + 1) − Σ(t³ − t) / (N(N − 1))). Exactly 0 when every value is tied or a
  /// sample is empty (the formula's rounding is not trusted to reach 0 there).
  var nullVariance: Double {
    guard distinctValues > 1, count1 > 0, count2 > 0 else { return 0 }
    let n = count1 + count2
    return max(0, count1 * count2 / 12 * ((n + 1) - tieTerm / (n * (n - 1))))
  }
}
