extension Duration {
  /// The duration in seconds as a `Double` (exact to well under a microsecond for any wait
  /// Sleeve computes, which is all it is used for).
  var secondsValue: Double {
    let parts = components
    return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
  }

  /// A duration of `seconds` to the millisecond, clamped to 0…`limit` seconds and to 10⁹ s (NaN
  /// is 0), so the conversion to `Int64` milliseconds never traps.
  static func clampedSeconds(_ seconds: Double, limit: Double) -> Duration {
    guard seconds > 0, limit > 0 else { return .zero }
    return .milliseconds(Int64(min(seconds, limit, 1e9) * 1000))
  }

  /// `1.5 s`: the one-decimal text messages show.
  var secondsText: String {
    let tenths = (secondsValue * 10).rounded()
    let whole = Int64(tenths / 10)
    let fraction = Int64(tenths) - whole * 10
    return fraction == 0 ? "\(whole) s" : "\(whole).\(fraction) s"
  }
}
