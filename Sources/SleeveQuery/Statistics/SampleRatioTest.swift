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
/// traps. Counts are converted to `Double` (exact below 2⁵³ units).
///
/// ```swift
/// let srm = SampleRatioTest(unitsOn: 1_100, unitsOff: 3_900, shareOn: 0.25)!
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
  /// The share served on, in 0…1.
  public let shareOn: Double
  /// The units expected on: `shareOn × n`.
  public let expectedOn: Double
  /// The units expected off: `(1 − shareOn) × n`.
  public let expectedOff: Double
  /// Pearson's chi-square statistic; `nil` when there is none (no units, or a share of 0 or 1,
  /// where the leak rule decides instead) or it overflows (a share within about 1e-290 of 0 or
  /// 1, where p is 0). Always finite.
  public let statistic: Double?
  /// The p-value: the chi-square tail for a share inside 0…1; for a share of 0 or 1, 0 when a
  /// unit leaked into the empty arm and 1 otherwise; 1 with no units. Always in 0…1.
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

  /// Checks `unitsOn` and `unitsOff` against `shareOn`; `nil` for input no split can produce
  /// (a negative count, or a share that is not a number in 0…1).
  public init?(unitsOn: Int, unitsOff: Int, shareOn: Double) {
    guard unitsOn >= 0, unitsOff >= 0, shareOn >= 0, shareOn <= 1 else { return nil }
    self.unitsOn = unitsOn
    self.unitsOff = unitsOff
    self.shareOn = shareOn
    let on = Double(unitsOn)
    let off = Double(unitsOff)
    let total = on + off
    expectedOn = shareOn * total
    expectedOff = (1 - shareOn) * total
    guard total > 0 else {
      (statistic, pValue, outcome) = (nil, 1, .notCheckable(.noUnits))
      return
    }
    if shareOn == 0 || shareOn == 1 {
      let leaked = shareOn == 0 ? unitsOn > 0 : unitsOff > 0
      (statistic, pValue, outcome) = (nil, leaked ? 0 : 1, leaked ? .mismatch : .consistent)
      return
    }
    let x =
      (on - expectedOn) * (on - expectedOn) / expectedOn
      + (off - expectedOff) * (off - expectedOff) / expectedOff
    // Only a share within about 1e-290 of 0 or 1 can overflow the statistic: p is then 0.
    let p = x.isFinite ? erfc((x / 2).squareRoot()) : 0
    statistic = x.isFinite ? x : nil
    pValue = p
    let smaller = min(expectedOn, expectedOff)
    if smaller < Double(Self.minimumUnitsPerArm) {
      outcome = .notCheckable(.tooFewExpectedUnits(smallerExpected: smaller))
    } else {
      outcome = p < Self.threshold ? .mismatch : .consistent
    }
  }
}
