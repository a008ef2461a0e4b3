/// The known name a mistyped one was most likely meant to be, as git and
/// swift-argument-parser suggest it ("Did you mean 'errors'?").
///
/// The distance is the optimal string alignment distance (Levenshtein plus the swap of two
/// neighbours, so `erorrs` is one step from `errors`), over Unicode scalars, ignoring ASCII
/// case. A name is suggested when it is at most a third of the typed name's length away (at
/// least 1, at most 3) and closer than every other; ties go to the first in the given order.
/// A typed name of more than 64 scalars gets none (it is no typo, and the table stays small).
enum Suggestion {
  /// The longest typed name a suggestion is computed for, in Unicode scalars.
  static let maximumTypedScalars = 64

  /// The candidate `typed` most likely meant, or `nil` when none is close enough.
  static func closest(to typed: String, among candidates: [String]) -> String? {
    let typedScalars = scalars(typed)
    guard !typedScalars.isEmpty, typedScalars.count <= maximumTypedScalars else { return nil }
    let allowed = min(max(typedScalars.count / 3, 1), 3)
    var best: (name: String, distance: Int)?
    for candidate in candidates where candidate != typed {
      let candidateScalars = scalars(candidate)
      guard abs(candidateScalars.count - typedScalars.count) <= allowed else { continue }
      let distance = Self.distance(typedScalars, candidateScalars)
      if distance <= allowed, distance < (best?.distance ?? .max) {
        best = (candidate, distance)
      }
    }
    return best?.name
  }

  /// ` Did you mean 'x'?` for the closest candidate (`quoted` shapes how it is shown, e.g.
  /// with its `--`), or nothing.
  static func didYouMean(
    _ typed: String, among candidates: [String], quoted: (String) -> String = { $0 }
  ) -> String {
    closest(to: typed, among: candidates).map { " Did you mean '\(quoted($0))'?" } ?? ""
  }

  /// `expected one of a, b, c` and, when `typed` is close to one, `; did you mean 'b'?`: the
  /// reason a value of an enumerated option is refused.
  static func expectedOneOf(_ names: [String], typed: String) -> String {
    "expected one of " + names.joined(separator: ", ")
      + (closest(to: typed, among: names).map { "; did you mean '\($0)'?" } ?? "")
  }

  private static func scalars(_ text: String) -> [UInt32] {
    text.unicodeScalars.prefix(maximumTypedScalars + 1).map { scalar in
      // ASCII letters compare without case; everything else as it is.
      (0x41...0x5A).contains(scalar.value) ? scalar.value + 0x20 : scalar.value
    }
  }

  /// The optimal string alignment distance between `a` and `b`.
  static func distance(_ a: [UInt32], _ b: [UInt32]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var before = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], before[j - 2] + 1)
        }
      }
      (before, previous, current) = (previous, current, before)
    }
    return previous[b.count]
  }
}
