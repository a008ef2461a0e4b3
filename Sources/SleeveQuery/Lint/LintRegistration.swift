import SleeveStore

/// One recorded handler as the lint checks see it: its row, and, when the session recorded
/// them (schema 0004), its place in the order of registry changes and what it replaced.
struct LintRegistration {
  let id: Int64
  let control: Int64
  let events: UInt
  let isClosure: Bool
  let handler: String
  let identifier: String?
  let anchorType: String?
  let site: String
  let removalReason: String?
  /// The session's count of additions and removals when it was added; `nil` without
  /// lifetimes.
  var added: Int64?
  /// ... and when it was removed; `nil` while live (or without lifetimes).
  var removed: Int64?
  /// The registration it replaced by identifier.
  var replaced: Int64?
  /// Whether the query's handler filters (`--control`, `--handler`, `--flag`) select it:
  /// findings are reported for selected handlers only.
  var isSelected = true

  /// Whether the two were live at the same time, by the exact order of registry changes:
  /// each was added before the other was removed. `false` when either lacks its lifetime.
  func overlaps(_ other: LintRegistration) -> Bool {
    guard let added, let otherAdded = other.added else { return false }
    return added < (other.removed ?? .max) && otherAdded < (removed ?? .max)
  }
}

/// What one session's outcomes say of one handler (one pass over the outcomes).
struct HandlerTally {
  /// Outcomes other than `ownerReleased`: fires the handler was present for.
  var reached = 0
  /// ok + failed.
  var ran = 0
  var failed = 0
  /// The fire at which its owner was found gone, if it was.
  var ownerReleasedFire: Int64?
  /// Outcomes refused at the nesting limit, and one such fire.
  var refused = 0
  var refusedFire: Int64?
  /// Synchronous invocations (ok + failed), and their durations above the frame budget.
  var synchronous = 0
  var overBudget: [Int64] = []
  /// The largest synchronous duration at or under the budget (for an exact p99 when the
  /// order statistics straddle it).
  var largestWithinBudget: Int64?
}

/// Per-fire facts the interaction checks need, one byte per fire.
enum FireFacts {
  static let ran: UInt8 = 1
  static let failed: UInt8 = 2
}
