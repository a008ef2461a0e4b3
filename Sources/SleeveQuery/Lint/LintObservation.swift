/// What one check saw of one handler or control in one session, before sessions are pooled.
///
/// Numbers are laid out per check (``LintCheck/numberRules``): each is summed across
/// sessions or kept at its maximum or minimum.
struct LintObservation {
  var numbers: [Int64]
  var otherSites: Set<String> = []
  var sessions: Set<Int64> = []
  /// Durations over the frame budget (stalls only).
  var durations: [Int64] = []
  /// Texts kept from the first session that had them (an event name, a chain, an owner).
  var texts: [String] = []

  /// Pools `other` (the same key, another session) into this one.
  mutating func pool(_ other: LintObservation, rules: [LintObservation.Rule]) {
    for index in numbers.indices where index < other.numbers.count {
      switch rules[index] {
      case .sum: numbers[index] = Self.saturatingSum(numbers[index], other.numbers[index])
      case .max: numbers[index] = Swift.max(numbers[index], other.numbers[index])
      case .min: numbers[index] = Swift.min(numbers[index], other.numbers[index])
      }
    }
    otherSites.formUnion(other.otherSites)
    sessions.formUnion(other.sessions)
    durations += other.durations
    if texts.isEmpty { texts = other.texts }
  }

  /// `a + b`, saturated at the bounds instead of trapping (counts from a hostile file).
  static func saturatingSum(_ a: Int64, _ b: Int64) -> Int64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    guard overflow else { return sum }
    return b > 0 ? .max : .min
  }

  /// How a number is pooled across sessions.
  enum Rule {
    case sum, max, min
  }
}

/// Which finding an observation belongs to.
struct LintObservationKey: Hashable {
  let check: LintCheck
  let control: String
  let handler: String?
  let site: String?
}
