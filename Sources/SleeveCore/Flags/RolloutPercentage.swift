/// The share of units a percentage rollout serves `on`, in steps of 0.01% (basis points,
/// 0...10,000): `25%`, `0.5%`, `12.25%`.
///
/// Raising it only moves units from `off` to `on`, never back (``RolloutHash``).
public struct RolloutPercentage: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The share in basis points: 0 (nobody) to 10,000 (everyone).
  public let basisPoints: Int

  /// Everyone: 100%.
  public static let everyone = RolloutPercentage(checkedBasisPoints: 10_000)

  /// A share of `basisPoints` (1 = 0.01%), or `nil` outside 0...10,000.
  public init?(basisPoints: Int) {
    guard (0...10_000).contains(basisPoints) else { return nil }
    self.basisPoints = basisPoints
  }

  /// A share of `percent` (0...100, at most two decimals: `0.25` but not `0.125`), or `nil`
  /// for a value outside that range, with more decimals, or not finite.
  public init?(percent: Double) {
    guard percent.isFinite, (0...100).contains(percent) else { return nil }
    let scaled = (percent * 100).rounded()
    guard abs(scaled - percent * 100) < 1e-6 else { return nil }
    self.init(basisPoints: Int(scaled))
  }

  private init(checkedBasisPoints: Int) { basisPoints = checkedBasisPoints }

  /// The share as a percentage, 0 to 100.
  public var percent: Double { Double(basisPoints) / 100 }

  /// The share as a fraction, 0 to 1.
  public var fraction: Double { Double(basisPoints) / 10_000 }

  /// `25%`, `0.5%`, `12.25%`: no trailing zeros.
  public var description: String {
    let whole = basisPoints / 100
    let cents = basisPoints % 100
    guard cents != 0 else { return "\(whole)%" }
    let decimals = cents % 10 == 0 ? "\(cents / 10)" : (cents < 10 ? "0\(cents)" : "\(cents)")
    return "\(whole).\(decimals)%"
  }

  /// Ordered by share.
  public static func < (left: Self, right: Self) -> Bool { left.basisPoints < right.basisPoints }
}
