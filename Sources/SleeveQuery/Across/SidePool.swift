/// What one side of a comparison recorded of one group, pooled over its sessions, kept per
/// stratum (test) so a comparison can match like with like.
struct SidePool {
  /// One stratum's invocations: failures, runs and durations.
  struct Stratum {
    var failed = 0
    var n = 0
    var durations: [Int64] = []
  }

  /// By test identity; `""` holds sessions without one.
  var strata: [String: Stratum] = [:]
  var kinds: [FailureKind: Int] = [:]
  var sessions = 0
  var site: String?

  var n: Int { strata.values.reduce(0) { $0 + $1.n } }
  var failed: Int { strata.values.reduce(0) { $0 + $1.failed } }

  /// Every duration of every stratum, in ascending order (one array; the strata's own are
  /// left as they are).
  var sortedDurations: [Int64] {
    RadixSort.sorted(concatenating: strata.values.map(\.durations))
  }

  /// Adds one session's tally of the group, under stratum `test`.
  mutating func add(_ tally: GroupTally, test: String) {
    guard tally.ran > 0 else { return }
    fold(
      sessions: 1, [test: Stratum(failed: tally.failed, n: tally.ran, durations: tally.durations)],
      kinds: tally.failureKinds, site: tally.site)
  }

  /// Folds `other` (the same handler under another key, e.g. before its line moved) into this.
  mutating func absorb(_ other: SidePool) {
    fold(sessions: other.sessions, other.strata, kinds: other.kinds, site: other.site)
  }

  private mutating func fold(
    sessions: Int, _ more: [String: Stratum], kinds moreKinds: [FailureKind: Int],
    site: String?
  ) {
    self.sessions += sessions
    for (key, stratum) in more {
      strata[key, default: Stratum()].failed += stratum.failed
      strata[key, default: Stratum()].n += stratum.n
      strata[key, default: Stratum()].durations.append(contentsOf: stratum.durations)
    }
    for (kind, count) in moreKinds { kinds[kind, default: 0] += count }
    if self.site == nil { self.site = site }
  }
}
