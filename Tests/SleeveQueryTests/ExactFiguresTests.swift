import Foundation
import SleeveStore
import Testing

@testable import SleeveQuery

// Reference values: Python 3's `float(Fraction(n, d))` (the exact rational, rounded once to the
// nearest double, ties to even), and `float(lo + Fraction(f) * (hi - lo))` for interpolations.

/// Figures computed from integers are exact until one final rounding: means, shifts, expected
/// counts (see ``ExactRounding``).
@Suite("Exact figures at the edges")
struct ExactFiguresTests {
  @Test(
    "an integer quotient is the exact rational rounded once, as Python's float(Fraction) gives",
    arguments: [
      (Int128(1), UInt64(3), 0.3333333333333333),
      (-1, 3, -0.3333333333333333),
      (4_611_686_018_429_387_904, 2_001, 2304690663882752.5),
      (9_007_199_254_740_993, 1, 9007199254740992.0),
      (9_007_199_254_740_993, 2, 4503599627370496.0),
      (18_014_398_509_481_987, 4, 4503599627370497.0),
      (Int128.max, 1, 1.7014118346046923e+38),
      (Int128.min, 1, -1.7014118346046923e+38),
      (Int128.min, 3, -5.671372782015641e+37),
      (Int128.max, UInt64.max, 9.223372036854776e+18),
      (1, UInt64.max, 5.421010862427522e-20),
      (1_000_000_000_000_000_000_000_000_000_007, 999_999_937, 1.000000063000004e+21),
      (0, 5, 0.0),
      (1_152_921_504_606_847_104, 1, 1.152921504606847e+18),
      (1_152_921_504_606_847_105, 1, 1.1529215046068472e+18),
      (7, 10_000, 0.0007),
      (78_000, 10_000, 7.8),
    ] as [(Int128, UInt64, Double)])
  func quotientIsCorrectlyRounded(numerator: Int128, denominator: UInt64, expected: Double) {
    let quotient = ExactRounding.quotient(numerator, denominator)
    #expect(quotient.bitPattern == expected.bitPattern, "\(numerator) / \(denominator)")
  }

  @Test(
    "an interpolation between integers is exact and rounded once, where doubles round twice",
    arguments: [
      // (low, high, fraction, exact) where float64 interpolation gives a neighbour.
      (
        Int128(-11_129_280_797_190_255_882), Int128(-11_129_280_797_189_792_240), 0.5,
        -1.1129280797190023e+19
      ),
      (-2_610_796_082_954_660_033, -2_610_796_082_954_052_679, 0.1, -2.6107960829545994e+18),
      (-8_472_849_883_061_164_379, -8_472_849_883_060_517_446, 0.75, -8.47284988306068e+18),
      (215_963, 736_491, 0.6803999731817859, 570130.2372403686),
      (-9_223_372_036_854_775_808, 9_223_372_036_854_775_807, 0.5, -0.5),
      (5, 6, 0, 5),
    ] as [(Int128, Int128, Double, Double)])
  func interpolationIsCorrectlyRounded(low: Int128, high: Int128, fraction: Double, exact: Double) {
    let value = ExactRounding.interpolated(from: low, to: high, at: fraction)
    #expect(value.bitPattern == exact.bitPattern, "\(low) → \(high) at \(fraction)")
  }

  @Test("the Hodges-Lehmann shift near 2^62 ns is the exact 1,000,300, not 999,936")
  func shiftNearTwoToTheSixtyTwoIsExact() throws {
    let base: Int64 = 1 << 62
    let on = (0..<30).map { base + 300 + 2_048 * Int64($0) }
    let off = (0..<30).map { base - 1_000_000 + 2_048 * Int64($0) }
    let shift = try #require(HodgesLehmann.shift(on, off))
    #expect(shift.estimate == 1_000_300 && !shift.subsampled)
    let back = try #require(HodgesLehmann.shift(off, on))
    #expect(back.estimate == -1_000_300)
  }

  @Test("the shift of the extremes is exact: Int64.max against Int64.min is 2^64 − 1")
  func shiftOfExtremesIsExact() throws {
    let shift = try #require(HodgesLehmann.shift([.max], [.min]))
    #expect(shift.estimate == 18446744073709551615.0)
    // An even number of differences: the midpoint of −2^63 and 2^63 − 1 is −0.5 (in doubles
    // both ends round to ±2^63 and the midpoint to 0).
    let mid = try #require(HodgesLehmann.shift([.min, .max], [0]))
    #expect(mid.estimate == -0.5)
  }

  /// 2^62 ns, then 2,000 invocations of 1,000 ns.
  static let edgeDurations: [Int64] = [1 << 62] + Array(repeating: 1_000, count: 2_000)

  @Test("a raw-row mean is the exact sum over n: 2^62 then 2,000 × 1,000 ns is 2304690663882752.5")
  func rawMeanIsExact() throws {
    var durations = Self.edgeDurations
    let row = LatencyRow(key: "edge", durations: &durations, percentiles: [50])
    #expect(row.mean == 2304690663882752.5)
    // The order of the rows does not matter.
    var reversed = Array(Self.edgeDurations.reversed())
    #expect(LatencyRow(key: "edge", durations: &reversed, percentiles: [50]).mean == row.mean)
  }

  @Test("the mean is the same Double from raw rows and from summaries")
  func meanAgreesEitherWay() throws {
    var histogram = ExponentialHistogram()
    for duration in Self.edgeDurations { histogram.add(duration) }
    var durations = Self.edgeDurations
    let raw = LatencyRow(key: "edge", durations: &durations, percentiles: [50])
    let summary = LatencyRow(key: "edge", histogram: histogram, percentiles: [50])
    #expect(summary.mean == raw.mean && raw.mean == 2304690663882752.5)
    // Durations of Int64.max: the sum passes Int64 and the mean is still exact.
    var huge: [Int64] = [.max, .max, .max]
    #expect(
      LatencyRow(key: "max", durations: &huge, percentiles: [50]).mean == 9.223372036854776e18)
  }

  @Test("equal values have variance exactly 0 and their own mean: ten ln(123,456,789 ns)")
  func equalValuesHaveNoVariance() throws {
    // The textbook Σx² − (Σx)²/n leaves 2.5e-13 here, and a mean one ulp off.
    let value = log(123_456_789.0)
    let moments = try #require(Moments(values: repeatElement(value, count: 10)))
    #expect(moments.variance == 0 && moments.mean == value && moments.count == 10)
    let grouped = try #require(Moments(weighted: [(value: value, count: 4_096)]))
    #expect(grouped.variance == 0 && grouped.mean == value)
  }

  @Test("weighted moments are the moments of the values expanded, as numpy's mean and var(ddof=1)")
  func weightedMomentsMatchExpanded() throws {
    // numpy: x = [1.5, 1.5, 1.5, 2.5]; x.mean() = 1.75, x.var(ddof=1) = 0.25
    let weighted = try #require(
      Moments(weighted: [(value: 1.5, count: 3), (value: 2.5, count: 1)]))
    #expect(weighted == Moments(values: [1.5, 1.5, 1.5, 2.5]))
    #expect(weighted.mean == 1.75 && weighted.variance == 0.25 && weighted.count == 4)
    // A total count past Int.max, a negative count or a value that is not finite: no moments.
    #expect(Moments(weighted: [(value: 1, count: .max), (value: 2, count: 1)]) == nil)
    #expect(Moments(weighted: [(value: 1, count: -1)]) == nil)
    #expect(Moments(values: [1, .infinity]) == nil)
    #expect(Moments(values: []) == Moments(count: 0, sum: 0, sumOfSquares: 0))
  }

  @Test(
    "a session's duration is the exact difference of its times: 1,500 ns at 1.7e18 ns is 1.5e-6 s",
    arguments: [
      (Int64(1_700_000_000_000_000_001), Int64(1_700_000_000_000_001_501), 1.5e-06),
      (.min, .max, 18446744073.709553), (.max, .min, -18446744073.709553), (5, 5, 0),
    ])
  func sessionDurationIsExact(start: Int64, end: Int64, seconds: Double) {
    let session = SessionSummary(
      id: 1, uuid: "", name: "s", startedUnixNanoseconds: start, lastSeenUnixNanoseconds: end,
      liveness: .ended, writeErrors: 0, failedEvents: 0, droppedEvents: 0, fires: 0,
      outcomes: 0, metadata: [:], context: SessionContext())
    #expect(session.durationSeconds == seconds, "\(start) → \(end)")
  }
}
