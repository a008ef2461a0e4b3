/// Counts read from a file added without trapping: a hostile or damaged file can hold counts
/// whose sum passes `Int.max`, which then reads as `Int.max` (counts are never negative).
enum SaturatingCount {
  /// `left + right`, saturating at `Int.max`.
  static func sum(_ left: Int, _ right: Int) -> Int {
    let (total, overflow) = left.addingReportingOverflow(right)
    return overflow ? .max : total
  }
}
