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
  /// that order (`nil` past the end), by Hoare's selection: `values` is reordered so that
  /// everything before `rank` is at most, and everything after it at least, its element.
  public static func orderStatistics(_ values: inout [Int128], rank: Int) -> (Int128, Int128?) {
    values.withUnsafeMutableBufferPointer { buffer in
      var low = 0
      var high = buffer.count - 1
      while low < high {
        // The median of the first, middle and last: a pivot that is never the range's extreme
        // on sorted or reversed runs, which the formed differences are made of.
        let (a, b, c) = (buffer[low], buffer[(low + high) / 2], buffer[high])
        let pivot = max(min(a, b), min(max(a, b), c))
        var i = low
        var j = high
        while i <= j {
          while buffer[i] < pivot { i += 1 }
          while buffer[j] > pivot { j -= 1 }
          if i <= j {
            buffer.swapAt(i, j)
            i += 1
            j -= 1
          }
        }
        // [low, j] is at most the pivot, [i, high] at least, and between them it is equal.
        if rank <= j {
          high = j
        } else if rank >= i {
          low = i
        } else {
          break
        }
      }
      let next = buffer[(rank + 1)...].min()
      return (buffer[rank], next)
    }
  }
}
