#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A comparison of two arms' means that stays valid however often it is looked at: the
/// asymptotic confidence sequence of Waudby-Smith, Arbour, Sinha, Kennedy & Ramdas,
/// "Time-uniform central limit theory and asymptotic confidence sequences", Annals of
/// Statistics 52 (2024), arXiv 2103.06476, as GrowthBook's gbstats uses it for its sequential
/// tests (`SequentialTwoSidedTTest`).
///
/// A fixed-horizon test promises its error rate at one look; a check that runs again as sessions
/// arrive looks many times, and each look is another chance of a false alarm. A confidence
/// sequence covers the true difference at every sample size at once, with probability at least
/// 1 − alpha (asymptotically: for large samples, with finite variances), so a check may stop the
/// first time the interval excludes 0 and still be wrong at most alpha of the time.
///
/// With N the units in both arms, V the variance of the estimate (absolute: v_t/n_t + v_c/n_c;
/// relative lift (m_t − m_c)/m_c by the delta method: v_t/(m_c² n_t) + v_c m_t²/(m_c⁴ n_c), t the
/// treatment and c the control) and ρ² = (−2 ln α + ln(−2 ln α + 1)) / N* (the paper's ρ for a
/// target sample size N*), the interval is (eq. 9)
/// estimate ± √(V N) · √(2 (N ρ² + 1) ln(√(N ρ² + 1) / α) / (N ρ)²), and the always-valid p-value
/// is min(1, 1/E) with E = exp(ρ² s / (2 (N ρ² + 1))) / √(N ρ² + 1), s = estimate² N / V.
/// p < α exactly when the interval excludes 0.
///
/// N* (``tuning``) picks ρ: the ρ² above (approximately) minimises the interval's width at a
/// total of N* units, so sizes near N* get the narrowest interval; far smaller or larger ones a
/// wider one than a N* matched to them would. The guarantee holds for any N*: a wrong N* costs
/// power, never validity.
///
/// Degenerate input has no evidence and gives `nil`, never a trap or a NaN: fewer than two units
/// in an arm, no variance (both arms constant), a control mean of 0 for a relative difference,
/// alpha outside (0, 1), a tuning that is not a positive finite number, or anything non-finite.
///
/// ```swift
/// let a = Moments(successes: 1_396, trials: 3_000)!
/// let b = Moments(successes: 2_422, trials: 3_461)!
/// let c = SequentialComparison(treatment: b, control: a)!  // absolute, α 0.05, N* 5000
/// c.estimate  // 0.2345; c.lower 0.198, c.upper 0.271; c.pValue 6.3e-76
/// ```
public struct SequentialComparison: Equatable, Sendable {
  /// How the difference between the arms is measured.
  public enum Difference: Equatable, Sendable {
    /// treatment mean − control mean.
    case absolute
    /// (treatment mean − control mean) / control mean, with the delta method's variance.
    case relative
  }

  /// The default level: 0.05.
  public static let defaultAlpha = 0.05
  /// The default tuning N*: 5,000 units in both arms, as gbstats' default.
  public static let defaultTuning = 5_000.0

  /// How the difference is measured.
  public let difference: Difference
  /// The estimated difference, treatment against control.
  public let estimate: Double
  /// The lower end of the confidence sequence's interval at this sample size.
  public let lower: Double
  /// The upper end of the confidence sequence's interval at this sample size.
  public let upper: Double
  /// The two-sided always-valid p-value for "no difference", in 0…1 (it underflows to 0 for
  /// overwhelming evidence rather than overflowing).
  public let pValue: Double
  /// The level: the interval covers the true difference at every look with probability 1 − alpha.
  public let alpha: Double
  /// The tuning N*, in units in both arms.
  public let tuning: Double

  /// Whether the whole interval lies above 0: the treatment is credibly larger.
  public var isAboveZero: Bool { lower > 0 }
  /// Whether the whole interval lies below 0: the treatment is credibly smaller.
  public var isBelowZero: Bool { upper < 0 }

  /// The method, as printed beside a verdict, e.g. "asymptotic confidence sequence
  /// (Waudby-Smith et al. 2024), alpha 0.05, N* 5000".
  public var method: String { Self.method(alpha: alpha, tuning: tuning) }

  /// The method's text for a level and a tuning.
  public static func method(alpha: Double = defaultAlpha, tuning: Double = defaultTuning)
    -> String
  {
    let n = tuning.rounded() == tuning && abs(tuning) < 1e15 ? "\(Int(tuning))" : "\(tuning)"
    return "asymptotic confidence sequence (Waudby-Smith et al. 2024), alpha \(alpha), N* \(n)"
  }

  /// Compares `treatment` with `control`; `nil` when there is no evidence to give (see the
  /// type's discussion for the degenerate cases).
  ///
  /// - Parameters:
  ///   - treatment: the arm whose difference is measured (gbstats' `stat_b`).
  ///   - control: the baseline (gbstats' `stat_a`).
  ///   - difference: absolute or relative.
  ///   - alpha: the level, in (0, 1).
  ///   - tuning: N*, a positive number of units in both arms.
  public init?(
    treatment: Moments, control: Moments, difference: Difference = .absolute,
    alpha: Double = defaultAlpha, tuning: Double = defaultTuning
  ) {
    guard treatment.count >= 2, control.count >= 2 else { return nil }
    guard alpha > 0, alpha < 1, tuning > 0, tuning.isFinite else { return nil }
    let nt = Double(treatment.count)
    let nc = Double(control.count)
    let (mt, mc) = (treatment.mean, control.mean)
    let estimate: Double
    let variance: Double
    switch difference {
    case .absolute:
      estimate = mt - mc
      variance = treatment.variance / nt + control.variance / nc
    case .relative:
      guard mc != 0 else { return nil }
      estimate = (mt - mc) / mc
      variance =
        treatment.variance / (mc * mc * nt) + control.variance * mt * mt / (mc * mc * mc * mc * nc)
    }
    guard estimate.isFinite, variance.isFinite, variance > 0 else { return nil }

    let total = nt + nc
    let logAlpha = log(alpha)
    let rhoSquared = (-2 * logAlpha + log(-2 * logAlpha + 1)) / tuning
    let spread = total * rhoSquared + 1
    let halfWidth = (variance * 2 * spread * (0.5 * log(spread) - logAlpha) / (total * rhoSquared))
      .squareRoot()
    let standardized = estimate * estimate * total / variance
    let logEvidence = rhoSquared * standardized / (2 * spread) - 0.5 * log(spread)
    let pValue = logEvidence > 0 ? exp(-logEvidence) : 1
    guard halfWidth.isFinite, pValue.isFinite, rhoSquared > 0 else { return nil }

    self.difference = difference
    self.estimate = estimate
    self.lower = estimate - halfWidth
    self.upper = estimate + halfWidth
    self.pValue = pValue
    self.alpha = alpha
    self.tuning = tuning
  }
}
