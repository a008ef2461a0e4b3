import Foundation

/// OpenTelemetry's base-2 exponential bucket mapping: at scale `s`, bucket `i` holds the values
/// in (2^(i·2^-s), 2^((i+1)·2^-s)], upper bound included.
///
/// The one home of the mapping, computed exactly as the OpenTelemetry specification and its
/// SDKs do: for scale > 0 the logarithm method (an exact power of two 2^e is bucket
/// (e << s) − 1; anything else floor(ln v · 2^s / ln 2)); for scale ≤ 0 the exponent method
/// (the IEEE 754 exponent, one less for an exact power of two, shifted right by −s). A test holds
/// it equal to the OpenTelemetry Python SDK's `LogarithmMapping` and `ExponentMapping`.
public enum ExponentialMapping {
  /// The scales the mapping is defined for here: −10 (buckets 2^1024 wide) to 20.
  public static let scales: ClosedRange<Int> = -10...20

  /// The bucket of `value` (positive, normal) at `scale`.
  public static func index(of value: Double, scale: Int) -> Int64 {
    precondition(value > 0 && value.isFinite && scales.contains(scale))
    let exponent = Int64(value.exponent)
    let isPowerOfTwo = value.significandBitPattern == 0
    if scale <= 0 {
      return (exponent - (isPowerOfTwo ? 1 : 0)) >> Int64(-scale)
    }
    if isPowerOfTwo { return (exponent << Int64(scale)) - 1 }
    // The SDK's scale factor: log2(e) · 2^s, scaled exactly (ldexp).
    let factor = Double(sign: .plus, exponent: scale, significand: M_LOG2E)
    return Int64((Foundation.log(value) * factor).rounded(.down))
  }

  /// The relative error a bucket's representative value is within, at `scale`:
  /// (2^(2^−s) − 1) / (2^(2^−s) + 1), about 1.083% at scale 5.
  public static func relativeError(scale: Int) -> Double {
    let base = Foundation.pow(2, Foundation.pow(2, Double(-scale)))
    return (base - 1) / (base + 1)
  }

  /// The representative value of bucket `index` at `scale`: 2·L·U / (L + U) for the bucket
  /// (L, U], whose relative distance to every value in the bucket is at most
  /// ``relativeError(scale:)``.
  public static func representative(of index: Int64, scale: Int) -> Double {
    let width = Foundation.pow(2, Double(-scale))
    let lower = Foundation.pow(2, Double(index) * width)
    let base = Foundation.pow(2, width)
    return 2 * lower * base / (1 + base)
  }
}
