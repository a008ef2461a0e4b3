/// The reference the pairwise statistics' tests check against, in the optimized support
/// module: a million differences formed and selected in the unoptimized test target took most
/// of `SortedInputStatisticsTests`' 5.5 s of CPU.
public enum FormedDifferences {
  /// Every difference `x - y` of `x` in `left` and `y` in `right`, exactly, in that order.
  public static func formed(_ left: [Int64], _ right: [Int64]) -> [Int128] {
    // Written into one buffer: nested map closures took seconds for a million pairs in a debug
    // build, for the same differences.
    [Int128](unsafeUninitializedCapacity: left.count * right.count) { buffer, initialized in
      var index = 0
      for x in left {
        for y in right {
          buffer.initializeElement(at: index, to: Int128(x) - Int128(y))
          index += 1
        }
      }
      initialized = index
    }
  }

  /// The element at `rank` (from 0) of `values` in ascending order, and the one after it in
  /// that order (`nil` past the end): `values` is sorted, the plainest reference there is (a
  /// hand-written selection here would only repeat SleeveQuery's `Selection`).
  public static func orderStatistics(_ values: inout [Int128], rank: Int) -> (Int128, Int128?) {
    values.sort()
    return (values[rank], rank + 1 < values.count ? values[rank + 1] : nil)
  }
}
