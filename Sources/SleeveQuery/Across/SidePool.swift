import SleeveStore

/// What one side of a comparison recorded of one group, pooled over its sessions, kept per
/// stratum (test) so a comparison can match like with like.
///
/// Durations come either as raw rows (each tally's ``GroupTally/durations``) or as summary
/// histograms (``GroupTally/histogram``, merged exactly), never both: the scan answers a whole
/// selection one way. A pool that is handed both anyway (a tally with both, tallies of each
/// kind, or histograms that cannot merge) is ``DurationSource/mixed``: its durations are not
/// compared at all (``RowDraft`` says so in the row's reasons), rather than silently combined
/// or converted.
struct SidePool {
  /// Where a pool's durations come from.
  enum DurationSource: Equatable {
    /// No tally yet.
    case none
    /// Raw outcome rows.
    case rawRows
    /// Summary histograms.
    case summaries
    /// Both, or histograms that do not merge: a programming error upstream, never combined.
    case mixed

    /// The source of a pool holding durations from `self` and `other`.
    func joined(_ other: DurationSource) -> DurationSource {
      switch (self, other) {
      case (.none, _): other
      case (_, .none): self
      case _ where self == other: self
      default: .mixed
      }
    }
  }

  /// One stratum's invocations: failures, runs and durations (raw, or a histogram).
  struct Stratum {
    var failed = 0
    var n = 0
    var durations: [Int64] = []
    /// The merged summary histogram of the stratum's durations, when they come from summaries.
    var histogram: ExponentialHistogram?
  }

  /// By test identity; `""` holds sessions without one.
  var strata: [String: Stratum] = [:]
  var kinds: [FailureKind: Int] = [:]
  var sessions = 0
  var site: String?
  /// Where the durations come from.
  var source = DurationSource.none

  var n: Int { strata.values.reduce(0) { $0 + $1.n } }
  var failed: Int { strata.values.reduce(0) { $0 + $1.failed } }

  /// Every duration of every stratum, in ascending order (one array; the strata's own are
  /// left as they are).
  var sortedDurations: [Int64] {
    RadixSort.sorted(concatenating: strata.values.map(\.durations))
  }

  /// Every stratum's histogram merged, when the pool's durations are summaries (`nil`
  /// otherwise, or when no stratum has one). Merging is exact addition, so the order of the
  /// strata does not matter.
  var pooledHistogram: ExponentialHistogram? {
    guard source == .summaries else { return nil }
    var pooled: ExponentialHistogram?
    for key in strata.keys.sorted() {
      guard let histogram = strata[key]?.histogram else { continue }
      guard pooled != nil else {
        pooled = histogram
        continue
      }
      guard pooled?.merge(histogram) == true else { return nil }
    }
    return pooled
  }

  /// Adds one session's tally of the group, under stratum `test`.
  mutating func add(_ tally: GroupTally, test: String) {
    guard tally.ran > 0 else { return }
    let source: DurationSource =
      tally.histogram == nil ? .rawRows : tally.durations.isEmpty ? .summaries : .mixed
    fold(
      sessions: 1,
      [
        test: Stratum(
          failed: tally.failed, n: tally.ran, durations: tally.durations,
          histogram: tally.histogram)
      ], kinds: tally.failureKinds, site: tally.site, source: source)
  }

  /// Folds `other` (the same handler under another key, e.g. before its line moved) into this.
  mutating func absorb(_ other: SidePool) {
    fold(
      sessions: other.sessions, other.strata, kinds: other.kinds, site: other.site,
      source: other.source)
  }

  private mutating func fold(
    sessions: Int, _ more: [String: Stratum], kinds moreKinds: [FailureKind: Int],
    site: String?, source moreSource: DurationSource
  ) {
    self.sessions += sessions
    source = source.joined(moreSource)
    for (key, stratum) in more {
      // In place: a copy out of the dictionary would copy its durations on append.
      strata[key, default: Stratum()].failed += stratum.failed
      strata[key, default: Stratum()].n += stratum.n
      strata[key, default: Stratum()].durations.append(contentsOf: stratum.durations)
      guard let histogram = stratum.histogram else { continue }
      guard strata[key]?.histogram != nil else {
        strata[key]?.histogram = histogram
        continue
      }
      // Histograms of different shapes (maximum scale, bucket cap) do not add up.
      if strata[key]?.histogram?.merge(histogram) != true { source = .mixed }
    }
    for (kind, count) in moreKinds { kinds[kind, default: 0] += count }
    if self.site == nil { self.site = site }
  }
}
