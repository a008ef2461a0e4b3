/// Finds the k-th smallest element in place, in expected linear time (Hoare's quickselect
/// with median-of-three pivots, falling back to sorting short ranges).
enum Selection {
  /// Reorders `values` so that `values[k]` is the k-th smallest (0-based), everything before it
  /// is ≤ it and everything after it is ≥ it; returns it.
  static func element<Value: Comparable>(
    at k: Int, in values: UnsafeMutableBufferPointer<Value>
  ) -> Value {
    precondition(k >= 0 && k < values.count, "selection index out of range")
    var low = 0
    var high = values.count - 1
    while high - low > 16 {
      let pivot = medianOfThree(values[low], values[(low + high) / 2], values[high])
      var left = low
      var right = high
      while left <= right {
        while values[left] < pivot { left += 1 }
        while values[right] > pivot { right -= 1 }
        if left <= right {
          values.swapAt(left, right)
          left += 1
          right -= 1
        }
      }
      if k <= right {
        high = right
      } else if k >= left {
        low = left
      } else {
        return values[k]
      }
    }
    var tail = UnsafeMutableBufferPointer(rebasing: values[low...high])
    tail.sort()
    return values[k]
  }

  private static func medianOfThree<Value: Comparable>(_ a: Value, _ b: Value, _ c: Value)
    -> Value
  {
    max(min(a, b), min(max(a, b), c))
  }
}
