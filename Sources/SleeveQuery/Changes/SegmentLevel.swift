/// The level of a series between two change points: the mean of its values, their spread
/// and a 95% interval for the mean.
public struct SegmentLevel: Equatable, Sendable {
  /// How many values (commits).
  public let count: Int
  /// Their mean.
  public let mean: Double
  /// Their standard deviation with divisor n (numpy's `std`, as the change-point test takes
  /// it); 0 for one value.
  public let populationDeviation: Double
  /// Σ (x − mean)².
  private let squares: Double

  /// The 95% Student's t interval for the mean (divisor n − 1, n − 1 degrees of freedom);
  /// `nil` for one value. Computed when asked (the search tests many splits it never shows).
  public var interval: ClosedRange<Double>? {
    guard count >= 2 else { return nil }
    let n = Double(count)
    let half =
      StudentT.inverseSurvival(0.025, degrees: n - 1) * (squares / (n - 1) / n).squareRoot()
    return (mean - half)...(mean + half)
  }

  /// The level of `values` (at least one).
  init(_ values: ArraySlice<Double>) {
    precondition(!values.isEmpty)
    let n = Double(values.count)
    let mean = values.reduce(0, +) / n
    let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
    self.count = values.count
    self.mean = mean
    self.populationDeviation = values.count >= 2 ? (squares / n).squareRoot() : 0
    self.squares = squares
  }
}

/// Two adjacent segments compared as Hunter and Apache Otava compare them: a two-sided
/// Student's t-test with pooled variance on their values (scipy's `ttest_ind_from_stats` with
/// the deviations of ``SegmentLevel/populationDeviation``), p = 1 when both hold two values or
/// fewer together, and p = 1 when neither varies nor differs (0/0).
///
/// For a rate with its counts (failed of ran per value), the change must also show in the
/// counts: the p-value is the larger of the t-test's and Fisher's exact test's on the pooled
/// counts of each side (``FisherExactTest``). The t-test alone reads three commits with 1, 2
/// and 1 failures in 50 invocations each as a level far above commits with few; the counts say
/// four failures in 150 invocations happen often at 0.4% (p = 0.005). The t-test in turn
/// guards against a difference in counts that varies more between commits than within them.
public struct SegmentComparison: Equatable, Sendable {
  /// The values before the change.
  public let before: SegmentLevel
  /// The values from the change on.
  public let after: SegmentLevel
  /// The test's two-sided p-value (for a rate with counts, the larger of the two tests').
  public let pValue: Double

  /// `before` and `after` compared; with `counts` (the same positions' failed and ran), by
  /// their counts too.
  init(
    before: ArraySlice<Double>, after: ArraySlice<Double>,
    counts: (
      before: ArraySlice<ChangePointSearch.Counts>, after: ArraySlice<ChangePointSearch.Counts>
    )? = nil
  ) {
    let left = SegmentLevel(before)
    let right = SegmentLevel(after)
    self.before = left
    self.after = right
    let n1 = Double(left.count)
    let n2 = Double(right.count)
    guard left.count + right.count > 2 else {
      self.pValue = 1
      return
    }
    let degrees = n1 + n2 - 2
    let pooled =
      ((n1 - 1) * left.populationDeviation * left.populationDeviation
        + (n2 - 1) * right.populationDeviation * right.populationDeviation) / degrees
    let t = (left.mean - right.mean) / (pooled * (1 / n1 + 1 / n2)).squareRoot()
    let p = StudentT.twoSidedP(t, degrees: degrees)
    var pValue = p.isNaN ? 1 : p
    if let counts {
      let sum = { (side: ArraySlice<ChangePointSearch.Counts>) in
        side.reduce((failed: 0, ran: 0)) {
          (SaturatingCount.sum($0.failed, $1.failed), SaturatingCount.sum($0.ran, $1.ran))
        }
      }
      let (l, r) = (sum(counts.before), sum(counts.after))
      pValue = max(
        pValue,
        FisherExactTest.twoSidedP(failed1: l.failed, ran1: l.ran, failed2: r.failed, ran2: r.ran))
    }
    self.pValue = pValue
  }

  /// Apache Otava's change magnitude: the larger of |after/before − 1| and |before/after − 1|
  /// (a ratio with a zero mean below it counts 0).
  public var relativeMagnitude: Double {
    let forward = before.mean == 0 ? 0 : after.mean / before.mean - 1
    let backward = after.mean == 0 ? 0 : before.mean / after.mean - 1
    return max(abs(forward), abs(backward))
  }

  /// after − before, relative to before (`nil` when before is 0): the change as outputs show it.
  public var relativeChange: Double? {
    before.mean == 0 ? nil : after.mean / before.mean - 1
  }

  /// |after − before|.
  public var absoluteMagnitude: Double { abs(after.mean - before.mean) }
}
