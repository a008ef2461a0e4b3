/// Change points in a series by E-divisive means with the significance test and the
/// minimum-magnitude rule of Hunter (Fleming et al., "Hunter: Using Change Point Detection to
/// Hunt for Performance Regressions", ICPE 2023), as Apache Otava 0.8.0 runs it.
///
/// 1. Split: windows of ``Options/window`` values, each starting half a window after the last
///    (or at its newest change point, if later). In each window E-divisive means
///    (``EnergyStatistic``) proposes the best split of the segments found so far; the split is
///    kept while its t-test (``SegmentComparison``) has p ≤ ten times ``Options/maxP`` (a
///    "weak" change point), and the window's search stops at the first one that does not.
/// 2. Merge: the weak change points of every window, each tested against its neighbours over
///    the whole series, are removed one at a time — the one with the largest p-value while
///    any has p ≥ ``Options/maxP``, then the one with the smallest magnitude while any has a
///    magnitude at or under ``Options/minMagnitude``, then (an addition to Otava's rule) the
///    one with the shortest level beside it while a level holds fewer than
///    ``Options/minimumSegment`` values — retesting its two neighbours after each removal.
///    What is left has p < maxP, a magnitude over minMagnitude and levels of minimumSegment
///    values or more.
///
/// Deterministic: no permutations, no randomness. One difference from Otava 0.8.0, on
/// purpose: after a removal Otava retests the change points at the removed one's index and the
/// next, leaving the previous one's stale (its right segment has grown); this retests the
/// previous and the next, the two whose segments changed.
public struct ChangePointSearch: Sendable {
  /// How the search runs.
  public struct Options: Equatable, Sendable {
    /// Values per window (Otava's default 50); at least 2.
    public var window = 50
    /// The largest p-value a change point may have (Otava's default 0.001).
    public var maxP = 0.001
    /// The smallest change that counts, measured as ``magnitude`` says (exclusive).
    public var minMagnitude = 0.0
    /// How a change's size is measured.
    public var magnitude = Magnitude.relative
    /// The fewest values each level beside a change point must hold (1, Otava's, allows a
    /// single outlying value to make two change points, into it and out of it).
    public var minimumSegment = 1

    /// A default search.
    public init() {}

    /// The split step's threshold: 10 × maxP under 0.05, 2 × maxP under 0.5, else maxP (as
    /// Otava relaxes it).
    var firstPassP: Double {
      maxP < 0.05 ? maxP * 10 : (maxP < 0.5 ? maxP * 2 : maxP)
    }
  }

  /// How a change's size is measured for ``Options/minMagnitude``.
  public enum Magnitude: String, Equatable, Sendable {
    /// Otava's: max(|after/before − 1|, |before/after − 1|), for latency.
    case relative
    /// |after − before|, for a rate (a change of 0.01 is one point).
    case absolute
  }

  /// The counts behind one value of a rate: its failed of its ran.
  public struct Counts: Equatable, Sendable {
    /// Invocations that failed.
    public let failed: Int
    /// Invocations that ran.
    public let ran: Int

    /// `failed` of `ran` (clamped to 0 ≤ failed ≤ ran).
    public init(failed: Int, ran: Int) {
      self.ran = max(0, ran)
      self.failed = min(max(0, failed), self.ran)
    }
  }

  /// One change point.
  public struct Point: Equatable, Sendable {
    /// The index of the first value after the change.
    public let index: Int
    /// The segments on each side (to the neighbouring change points) compared.
    public let comparison: SegmentComparison
  }

  /// The options.
  public let options: Options

  /// A search with `options`.
  public init(options: Options = Options()) {
    precondition(options.window >= 2)
    self.options = options
  }

  /// The change points of `series`, oldest first. With `counts` (one per value: the failed
  /// and ran behind a rate), each split is also tested on its pooled counts
  /// (``SegmentComparison``).
  public func changePoints(in series: [Double], counts: [Counts]? = nil) -> [Point] {
    precondition(counts == nil || counts!.count == series.count)
    return merge(split(series, counts: counts), in: series, counts: counts)
  }

  /// `series[range]` split at `index` and compared (by counts too, when given).
  private func compare(
    _ series: [Double], counts: [Counts]?, _ range: Range<Int>, at index: Int
  ) -> SegmentComparison {
    SegmentComparison(
      before: series[range.lowerBound..<index], after: series[index..<range.upperBound],
      counts: counts.map { ($0[range.lowerBound..<index], $0[index..<range.upperBound]) })
  }

  /// The change's size as ``Options/magnitude`` measures it.
  func magnitude(of comparison: SegmentComparison) -> Double {
    switch options.magnitude {
    case .relative: comparison.relativeMagnitude
    case .absolute: comparison.absoluteMagnitude
    }
  }

  /// The weak change points: every window's, retested over the whole series.
  func split(_ series: [Double], counts: [Counts]? = nil) -> [Point] {
    let step = options.window / 2
    var found: Set<Int> = []
    var start = 0
    while start < series.count {
      let end = min(start + options.window, series.count)
      let points = windowPoints(series, counts: counts, start..<end)
      found.formUnion(points)
      start = max(points.last ?? 0, start + step)
    }
    let indices = found.sorted()
    return indices.indices.map { retest(at: $0, of: indices, in: series, counts: counts) }
  }

  /// One window's change points (indices into `series`, ascending).
  private func windowPoints(_ series: [Double], counts: [Counts]?, _ window: Range<Int>) -> [Int] {
    let statistic = EnergyStatistic(series[window])
    let offset = window.lowerBound
    var points: [Int] = []
    while true {
      let bounds = [0] + points + [window.count]
      var best: (tau: Int, q: Double, range: Range<Int>)?
      for (low, high) in zip(bounds, bounds.dropFirst()) where high - low > 1 {
        let candidate = statistic.candidate(in: low..<high)
        if best == nil || candidate.q > best!.q {
          best = (candidate.tau, candidate.q, low..<high)
        }
      }
      guard let best else { break }
      let comparison = compare(
        series, counts: counts,
        (best.range.lowerBound + offset)..<(best.range.upperBound + offset), at: best.tau + offset)
      guard comparison.pValue <= options.firstPassP else { break }
      points.insert(best.tau, at: points.firstIndex { $0 > best.tau } ?? points.count)
    }
    return points.map { $0 + offset }
  }

  /// The change point `indices[position]` compared with its neighbours' segments.
  private func retest(
    at position: Int, of indices: [Int], in series: [Double], counts: [Counts]?
  ) -> Point {
    let low = position == 0 ? 0 : indices[position - 1]
    let high = position == indices.count - 1 ? series.count : indices[position + 1]
    let index = indices[position]
    return Point(index: index, comparison: compare(series, counts: counts, low..<high, at: index))
  }

  /// The merge step: removes the weakest until every point is significant and large enough.
  func merge(_ weak: [Point], in series: [Double], counts: [Counts]? = nil) -> [Point] {
    var points = weak
    while !points.isEmpty {
      var weakest = Self.first(of: points) { $0.comparison.pValue > $1.comparison.pValue }
      if points[weakest].comparison.pValue < options.maxP {
        weakest = Self.first(of: points) {
          magnitude(of: $0.comparison) < magnitude(of: $1.comparison)
        }
        if magnitude(of: points[weakest].comparison) > options.minMagnitude {
          weakest = Self.first(of: points) { shortest($0) < shortest($1) }
          if shortest(points[weakest]) >= options.minimumSegment { return points }
        }
      }
      points.remove(at: weakest)
      let indices = points.map(\.index)
      for neighbour in [weakest - 1, weakest] where points.indices.contains(neighbour) {
        points[neighbour] = retest(at: neighbour, of: indices, in: series, counts: counts)
      }
    }
    return points
  }

  /// The fewer values of the two levels beside `point`.
  private func shortest(_ point: Point) -> Int {
    min(point.comparison.before.count, point.comparison.after.count)
  }

  /// The position of the first point no later point is `before` (the first maximum when
  /// `before` is `>`).
  private static func first(of points: [Point], _ before: (Point, Point) -> Bool) -> Int {
    var chosen = 0
    for index in points.indices.dropFirst() where before(points[index], points[chosen]) {
      chosen = index
    }
    return chosen
  }
}
