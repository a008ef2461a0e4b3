/// A set of fire ids stored as ascending closed ranges: small while fires are dropped or lost
/// in runs, which is how overload and write failures drop them.
struct FireRanges: Sendable {
  private(set) var ranges: [ClosedRange<UInt64>] = []

  var isEmpty: Bool { ranges.isEmpty }

  /// Adds `id`. When `extendingLast` is true (no fire of the same session was kept since the
  /// last one added), the last range grows to cover it.
  mutating func insert(_ id: UInt64, extendingLast: Bool) {
    if let last = ranges.last, id > last.upperBound, extendingLast || id == last.upperBound + 1 {
      ranges[ranges.count - 1] = last.lowerBound...id
    } else if ranges.last.map({ id > $0.upperBound }) ?? true {
      ranges.append(id...id)
    } else if !contains(id) {
      ranges.append(id...id)
      ranges.sort { $0.lowerBound < $1.lowerBound }
    }
  }

  /// Whether any id in `range` is in the set (an interaction's fires, first to last).
  func overlaps(_ range: ClosedRange<UInt64>) -> Bool {
    // The first stored range that does not end before `range` begins, by bisection.
    var low = 0
    var high = ranges.count
    while low < high {
      let middle = (low + high) / 2
      if ranges[middle].upperBound < range.lowerBound {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low < ranges.count && ranges[low].lowerBound <= range.upperBound
  }

  /// Whether `id` is in the set.
  func contains(_ id: UInt64) -> Bool {
    var low = 0
    var high = ranges.count - 1
    while low <= high {
      let middle = (low + high) / 2
      if ranges[middle].upperBound < id {
        low = middle + 1
      } else if ranges[middle].lowerBound > id {
        high = middle - 1
      } else {
        return true
      }
    }
    return false
  }
}
