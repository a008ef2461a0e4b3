import SleeveCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The sample ratio mismatch check of a percentage rollout: does the observed on/off split of
/// units agree with the share that was served on?
///
/// Method: Pearson's chi-square goodness of fit with one degree of freedom against the
/// expected counts `share × n` and `(1 − share) × n` (as `scipy.stats.chisquare(f_obs, f_exp)`),
/// p = P(χ²₁ ≥ x) = erfc(√(x/2)). A split is a mismatch when p < ``threshold`` (0.001, the level
/// GrowthBook's safe rollouts use: a real split bug gives p-values far below it, while a check
/// run at every look of a long rollout must almost never cry wolf, since a mismatch holds the
/// rollout). A broken split makes every other comparison untrustworthy, so a mismatch must hold
/// a rollout, never promote it.
///
/// The check runs only when each arm's *expected* count is at least ``minimumUnitsPerArm`` (8).
/// Expected, not observed: the expected counts depend only on the number of units and the
/// served share, so whether the check runs is decided by the sample size alone, never by the
/// outcome it is meant to judge. With an observed rule, a split that served nobody on (the
/// worst mismatch there is) would escape the check by having too few units on.
///
/// A share of exactly 0 or 1 has no chi-square (one expected count is 0). There the split is a
/// certainty, and the check asks whether anything leaked into the empty arm: one unit there is
/// impossible under the served split, so it is a mismatch with p = 0, whatever the sample size;
/// no leak is consistent with p = 1 (once there is at least one unit).
///
/// p-values come from `erfc`, which keeps full relative precision down to about 1e-308 (a
/// statistic near 1,400) and then underflows to 0, which is still below the threshold; no input
/// traps. The share is in basis points and the counts are integers, so the expected counts and
/// the rule that decides whether the check runs are exact.
///
/// ```swift
/// let srm = SampleRatioTest(
///   unitsOn: 1_100, unitsOff: 3_900, shareOn: RolloutPercentage(basisPoints: 2_500)!)!
/// srm.statistic  // 24.0
/// srm.isMismatch // true: p ≈ 9.6e-7
/// ```
public struct SampleRatioTest: Equatable, Sendable {
  /// The level below which a p-value is a mismatch: 0.001.
  public static let threshold = 0.001
  /// The smallest expected count each arm needs for the chi-square check to run: 8.
  public static let minimumUnitsPerArm = 8

  /// The method, as printed beside a verdict.
  public static let method =
    "sample ratio mismatch: chi-square goodness of fit (1 df), mismatch at p < 0.001, "
    + "checked with at least 8 expected units per arm"

  /// Why a split could not be checked.
  public enum NotCheckableReason: Equatable, Sendable, CustomStringConvertible {
    /// No units were observed at all.
    case noUnits
    /// An arm's expected count (the smaller of the two is carried) is below
    /// ``SampleRatioTest/minimumUnitsPerArm``.
    case tooFewExpectedUnits(smallerExpected: Double)

    /// One line for a report, e.g. "too few units: 7.75 expected in the smaller arm, 8 needed"
    /// (the expected count rounded to two decimals).
    public var description: String {
      switch self {
      case .noUnits:
        return "no units observed"
      case .tooFewExpectedUnits(let smaller):
        let shown = (smaller * 100).rounded() / 100
        return "too few units: \(shown) expected in the smaller arm, "
          + "\(SampleRatioTest.minimumUnitsPerArm) needed"
      }
    }
  }

  /// What the check concluded.
  public enum Outcome: Equatable, Sendable, CustomStringConvertible {
    /// The split agrees with the served share (p ≥ ``SampleRatioTest/threshold``).
    case consistent
    /// The split disagrees with the served share: hold, never promote.
    case mismatch
    /// Too few units to say; the reason says why.
    case notCheckable(NotCheckableReason)

    /// One line for a report: "consistent", "mismatch" or "not checkable: <reason>".
    public var description: String {
      switch self {
      case .consistent: return "consistent"
      case .mismatch: return "mismatch"
      case .notCheckable(let reason): return "not checkable: " + reason.description
      }
    }
  }

  /// The units observed on.
  public let unitsOn: Int
  /// The units observed off.
  public let unitsOff: Int
  /// The share served on.
  public let shareOn: RolloutPercentage
  /// The units expected on: `shareOn × n`, exact and rounded once (``ExactRounding``).
  public let expectedOn: Double
  /// The units expected off: `(1 − shareOn) × n`, exact and rounded once.
  public let expectedOff: Double
  /// Pearson's chi-square statistic; `nil` when there is none (no units, or a share of 0 or
  /// 100%, where the leak rule decides instead). Always finite.
  public let statistic: Double?
  /// The p-value: the chi-square tail for a share inside 0…100%; for a share of 0 or 100%, 0
  /// when a unit leaked into the empty arm and 1 otherwise; 1 with no units. Always in 0…1.
  public let pValue: Double
  /// What the check concluded.
  public let outcome: Outcome

  /// Whether the check could run (enough units expected in each arm, or a share of 0 or 1).
  public var isCheckable: Bool {
    if case .notCheckable = outcome { return false }
    return true
  }

  /// Whether the split is a mismatch (which holds a rollout).
  public var isMismatch: Bool { outcome == .mismatch }

  /// Checks `unitsOn` and `unitsOff` against `shareOn`; `nil` for a negative count.
  ///
  /// Everything before the statistic's last division is integer arithmetic on basis points
  /// (`Int128`): whether an arm expects at least ``minimumUnitsPerArm`` units is
  /// `min(b, 10,000 − b) · n ≥ 8 · 10,000`, exact (40 units at 80% expect 8 off, not
  /// 7.999999999999998), and the statistic is D² / (n · b · (10,000 − b)) with the exact
  /// integer D = 10,000 · on − b · n (the same value as Σ (observed − expected)² / expected).
  public init?(unitsOn: Int, unitsOff: Int, shareOn: RolloutPercentage) {
    guard unitsOn >= 0, unitsOff >= 0 else { return nil }
    self.unitsOn = unitsOn
    self.unitsOff = unitsOff
    self.shareOn = shareOn
    let whole = Int128(RolloutPercentage.everyone.basisPoints)
    let onShare = Int128(shareOn.basisPoints)
    let offShare = whole - onShare
    let total = Int128(unitsOn) + Int128(unitsOff)
    let denominator = UInt64(whole)
    expectedOn = ExactRounding.quotient(onShare * total, denominator)
    expectedOff = ExactRounding.quotient(offShare * total, denominator)
    guard total > 0 else {
      (statistic, pValue, outcome) = (nil, 1, .notCheckable(.noUnits))
      return
    }
    if onShare == 0 || offShare == 0 {
      let leaked = onShare == 0 ? unitsOn > 0 : unitsOff > 0
      (statistic, pValue, outcome) = (nil, leaked ? 0 : 1, leaked ? .mismatch : .consistent)
      return
    }
    // |D| ≤ 10,000 · 2^64 and the denominator ≤ 2^64 · 2.5·10^7: both finite as `Double`s.
    let deviation = Double(whole * Int128(unitsOn) - onShare * total)
    let x = deviation * deviation / (Double(total) * Double(onShare) * Double(offShare))
    statistic = x
    pValue = erfc((x / 2).squareRoot())
    let smallerShare = min(onShare, offShare)
    if smallerShare * total < Int128(Self.minimumUnitsPerArm) * whole {
      let smaller = ExactRounding.quotient(smallerShare * total, denominator)
      outcome = .notCheckable(.tooFewExpectedUnits(smallerExpected: smaller))
    } else {
      outcome = pValue < Self.threshold ? .mismatch : .consistent
    }
  }
}
