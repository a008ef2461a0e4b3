/// The Wilcoxon rank sum of one sample within two combined samples, by midranks, with the
/// ties' variance term: the one ranking the Mann-Whitney and van Elteren tests share.
///
/// Each sample is sorted on its own (``RadixSort``, linear time) and the two are walked
/// together, so ranking takes one `Int64` copy of each sample (no combined, tagged array);
/// callers holding sorted samples rank them without a copy (``init(sorted:_:)``). Only
/// comparisons touch the values, so any `Int64`s rank without overflow; sums are in `Double`
/// (exact to 2⁵³: rank sums of up to about 10⁸ values, far past the 10⁷ a diff ranks).
struct RankSum {
  /// The sum of the first sample's midranks (1-based) in the combined sample.
  let first: Double
  /// Σ (t³ − t) over the groups of t tied values in the combined sample (0 without ties).
  let tieTerm: Double
  /// The sizes of the two samples.
  let count1: Int
  let count2: Int
  /// The number of distinct values in the combined sample.
  let distinctValues: Int

  /// Ranks `first` among `first` and `second` combined.
  init(_ first: [Int64], _ second: [Int64]) {
    self.init(sorted: RadixSort.sorted(first), RadixSort.sorted(second))
  }

  /// Ranks `left` among `left` and `right` combined; both must be in ascending order (as
  /// ``RadixSort`` leaves them), which is not checked.
  init(sorted left: [Int64], _ right: [Int64]) {
    var i = 0
    var j = 0
    var placed = 0
    var rankSum = 0.0
    var tieTerm = 0.0
    var distinct = 0
    while i < left.count || j < right.count {
      let value: Int64
      if j == right.count || (i < left.count && left[i] <= right[j]) {
        value = left[i]
      } else {
        value = right[j]
      }
      let startLeft = i
      while i < left.count && left[i] == value { i += 1 }
      let startRight = j
      while j < right.count && right[j] == value { j += 1 }
      let inLeft = i - startLeft
      let ties = Double(inLeft + j - startRight)
      // The tied group takes ranks placed + 1 … placed + ties; each gets their mean.
      let midrank = Double(placed) + (ties + 1) / 2
      rankSum += Double(inLeft) * midrank
      if ties > 1 { tieTerm += ties * ties * ties - ties }
      placed += inLeft + j - startRight
      distinct += 1
    }
    self.first = rankSum
    self.tieTerm = tieTerm
    count1 = left.count
    count2 = right.count
    distinctValues = distinct
  }

  /// The rank sum's mean under no difference: n₁(N + 1)/2.
  var nullMean: Double {
    Double(count1) * Double(count1 + count2 + 1) / 2
  }

  /// The rank sum's variance under no difference, ties corrected:
  /// n₁n₂/12 · ((N + 1) − Σ(t³ − t) / (N(N − 1))). Exactly 0 when every value is tied or a
  /// sample is empty (the formula's rounding is not trusted to reach 0 there).
  var nullVariance: Double {
    guard distinctValues > 1, count1 > 0, count2 > 0 else { return 0 }
    let n1 = Double(count1)
    let n2 = Double(count2)
    let n = n1 + n2
    return max(0, n1 * n2 / 12 * ((n + 1) - tieTerm / (n * (n - 1))))
  }
}
