/// The stored form of an ``ExponentialHistogram``: a compact blob of LEB128 varints (signed
/// values zigzag-encoded), the one home of its layout.
///
/// Layout, in order: format version (1), maximum scale, maximum buckets, scale, offset, the
/// span of buckets n, the number of occupied buckets k, then k pairs (the gap since the
/// previous occupied bucket, its count), the zero count, the count, the sum (128-bit), then a
/// flag (0 empty, 1 not) and, when not empty, the minimum and maximum. Sparse: an unoccupied
/// bucket costs nothing. A histogram's encoding is canonical (its span starts and ends at
/// occupied buckets), so equal histograms have equal bytes. A typical handler's is a few
/// hundred bytes.
public enum HistogramCoding {
  /// The format version this binary writes and reads.
  public static let version: UInt64 = 1

  /// Why a blob does not decode.
  public struct DecodingError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. `the scale 40 is outside -10...20`.
    public let reason: String
    /// `damaged latency summary: …`.
    public var description: String { "damaged latency summary: \(reason)" }
  }

  /// The blob of `histogram`.
  public static func encode(_ histogram: ExponentialHistogram) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(16 + histogram.counts.count)
    append(version, to: &bytes)
    append(zigzag(Int64(histogram.maximumScale)), to: &bytes)
    append(UInt64(histogram.maximumBuckets), to: &bytes)
    append(zigzag(Int64(histogram.scale)), to: &bytes)
    append(zigzag(histogram.offset), to: &bytes)
    append(UInt64(histogram.counts.count), to: &bytes)
    append(UInt64(histogram.counts.count { $0 > 0 }), to: &bytes)
    var previous = -1
    for (position, count) in histogram.counts.enumerated() where count > 0 {
      append(UInt64(position - previous - 1), to: &bytes)
      append(count, to: &bytes)
      previous = position
    }
    append(histogram.zeroCount, to: &bytes)
    append(histogram.count, to: &bytes)
    let sum = UInt128(bitPattern: histogram.sum)
    let zigzagSum = (sum << 1) ^ (histogram.sum < 0 ? UInt128.max : 0)
    append(UInt64(truncatingIfNeeded: zigzagSum), to: &bytes)
    append(UInt64(truncatingIfNeeded: zigzagSum >> 64), to: &bytes)
    if let minimum = histogram.minimum, let maximum = histogram.maximum {
      append(1, to: &bytes)
      append(zigzag(minimum), to: &bytes)
      append(zigzag(maximum), to: &bytes)
    } else {
      append(0, to: &bytes)
    }
    return bytes
  }

  /// The histogram `bytes` hold.
  ///
  /// - Throws: ``DecodingError`` for a truncated blob, trailing bytes, an unknown version, a
  ///   scale or bucket count out of range, counts that do not add up, or a non-canonical form.
  public static func decode(_ bytes: [UInt8]) throws -> ExponentialHistogram {
    var reader = Reader(bytes: bytes)
    guard try reader.next() == version else {
      throw DecodingError(reason: "unknown format version")
    }
    let maximumScale = try reader.signed()
    let maximumBuckets = try reader.next()
    let scale = try reader.signed()
    guard ExponentialMapping.scales.contains(Int(clamping: maximumScale)),
      (2...4_096).contains(maximumBuckets)
    else { throw DecodingError(reason: "its maximum scale or bucket count is out of range") }
    guard scale <= maximumScale, scale >= maximumScale - 64 else {
      throw DecodingError(reason: "the scale \(scale) is outside what its maximum allows")
    }
    let offset = try reader.signed()
    let buckets = try reader.next()
    guard buckets <= maximumBuckets else {
      throw DecodingError(reason: "\(buckets) buckets, more than its maximum \(maximumBuckets)")
    }
    var histogram = ExponentialHistogram(
      maximumScale: Int(maximumScale), maximumBuckets: Int(maximumBuckets))
    histogram.scale = Int(scale)
    histogram.offset = offset
    let occupied = try reader.next()
    guard occupied <= buckets else {
      throw DecodingError(reason: "\(occupied) occupied buckets in a span of \(buckets)")
    }
    var counts = [UInt64](repeating: 0, count: Int(buckets))
    var position: UInt64 = 0
    for number in 0..<occupied {
      let (next, overflow) = position.addingReportingOverflow(try reader.next())
      guard !overflow, next < buckets else {
        throw DecodingError(reason: "a bucket past its span")
      }
      let count = try reader.next()
      guard count > 0 else { throw DecodingError(reason: "an occupied bucket with no count") }
      counts[Int(next)] = count
      position = next + 1
      if number == occupied - 1 && next != buckets - 1 {
        throw DecodingError(reason: "its span ends past its last occupied bucket")
      }
    }
    histogram.counts = counts
    histogram.zeroCount = try reader.next()
    histogram.count = try reader.next()
    let low = UInt128(try reader.next())
    let high = UInt128(try reader.next())
    let zigzagSum = low | (high << 64)
    histogram.sum = Int128(bitPattern: (zigzagSum >> 1) ^ (0 &- (zigzagSum & 1)))
    switch try reader.next() {
    case 0: break
    case 1:
      histogram.minimum = try reader.signed()
      histogram.maximum = try reader.signed()
    default: throw DecodingError(reason: "an unknown flag")
    }
    guard reader.isAtEnd else { throw DecodingError(reason: "bytes after its end") }
    try validate(histogram)
    return histogram
  }

  private static func validate(_ histogram: ExponentialHistogram) throws {
    var total = histogram.zeroCount
    for count in histogram.counts {
      let (sum, overflow) = total.addingReportingOverflow(count)
      guard !overflow else { throw DecodingError(reason: "its counts overflow") }
      total = sum
    }
    guard total == histogram.count else {
      throw DecodingError(
        reason: "its buckets hold \(total) values but its count is \(histogram.count)")
    }
    guard histogram.counts.first != 0, histogram.counts.last != 0 else {
      throw DecodingError(reason: "it starts or ends with an empty bucket")
    }
    let (_, overflow) = histogram.offset.addingReportingOverflow(Int64(histogram.counts.count))
    guard !overflow else { throw DecodingError(reason: "its offset is out of range") }
    switch (histogram.minimum, histogram.maximum) {
    case (nil, nil): guard histogram.count == 0 else { throw DecodingError(reason: "no minimum") }
    case (let low?, let high?):
      guard histogram.count > 0, low <= high else {
        throw DecodingError(reason: "its minimum and maximum disagree with its count")
      }
    default: throw DecodingError(reason: "its minimum and maximum disagree")
    }
  }

  private static func zigzag(_ value: Int64) -> UInt64 {
    UInt64(bitPattern: (value << 1) ^ (value >> 63))
  }

  private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
    var rest = value
    while rest >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }

  /// Reads varints, refusing a truncated or overlong one.
  private struct Reader {
    let bytes: [UInt8]
    var position = 0

    var isAtEnd: Bool { position == bytes.count }

    mutating func next() throws -> UInt64 {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while true {
        guard position < bytes.count else { throw DecodingError(reason: "it is truncated") }
        let byte = bytes[position]
        position += 1
        guard shift < 64, shift < 63 || byte <= 1 else {
          throw DecodingError(reason: "a number in it is too long")
        }
        value |= UInt64(byte & 0x7F) << shift
        if byte < 0x80 { return value }
        shift += 7
      }
    }

    mutating func signed() throws -> Int64 {
      let raw = try next()
      return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }
  }
}
