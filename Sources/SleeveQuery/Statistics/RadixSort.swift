/// Sorts `Int64`s ascending in linear time: a least-significant-digit radix sort, one byte a
/// pass, that skips every pass whose byte is the same in all values (durations of a few
/// microseconds to a second differ in three bytes of eight, so they take three passes).
///
/// The order is `Int64`'s own (negative values first, `Int64.min` to `Int64.max`): the sign bit
/// is flipped in the last pass's byte. Its result is the same array `sorted()` gives, since
/// equal `Int64`s are indistinguishable; it takes one scratch array of the same size.
enum RadixSort {
  /// Below this many values, the standard library's sort is faster than counting passes.
  static let smallCount = 256

  /// `parts` concatenated, in ascending order.
  static func sorted(concatenating parts: [[Int64]]) -> [Int64] {
    let count = parts.reduce(0) { $0 + $1.count }
    var values: [Int64] = []
    values.reserveCapacity(count)
    for part in parts { values.append(contentsOf: part) }
    sort(&values)
    return values
  }

  /// `values`, in ascending order.
  static func sorted(_ values: [Int64]) -> [Int64] {
    var copy = values
    sort(&copy)
    return copy
  }

  /// Sorts `values` ascending, in place.
  static func sort(_ values: inout [Int64]) {
    guard values.count > smallCount else {
      values.sort()
      return
    }
    let count = values.count
    // One histogram per byte, from one read of the values.
    var histograms = [Int](repeating: 0, count: 8 * 256)
    values.withUnsafeBufferPointer { source in
      histograms.withUnsafeMutableBufferPointer { counts in
        for value in source {
          let key = UInt64(bitPattern: value) ^ (1 << 63)
          for byte in 0..<8 {
            counts[byte << 8 | Int(truncatingIfNeeded: key >> UInt64(byte << 3) & 0xFF)] += 1
          }
        }
      }
    }
    var scratch = [Int64](repeating: 0, count: count)
    var inScratch = false
    for byte in 0..<8 {
      let shift = UInt64(byte << 3)
      var offsets = [Int](repeating: 0, count: 256)
      var total = 0
      var skip = false
      for digit in 0..<256 {
        let digitCount = histograms[byte << 8 | digit]
        if digitCount == count { skip = true }
        offsets[digit] = total
        total += digitCount
      }
      // Every value has the same byte here: the pass would not move anything.
      if skip { continue }
      func pass(
        from source: UnsafeBufferPointer<Int64>, to target: UnsafeMutableBufferPointer<Int64>
      ) {
        offsets.withUnsafeMutableBufferPointer { offsets in
          for value in source {
            let key = UInt64(bitPattern: value) ^ (1 << 63)
            let digit = Int(truncatingIfNeeded: key >> shift & 0xFF)
            target[offsets[digit]] = value
            offsets[digit] += 1
          }
        }
      }
      if inScratch {
        scratch.withUnsafeBufferPointer { source in
          values.withUnsafeMutableBufferPointer { target in pass(from: source, to: target) }
        }
      } else {
        values.withUnsafeBufferPointer { source in
          scratch.withUnsafeMutableBufferPointer { target in pass(from: source, to: target) }
        }
      }
      inScratch.toggle()
    }
    if inScratch { swap(&values, &scratch) }
  }
}
