import SleeveQuery
import SleeveTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The proof that the sequential check holds when it is asked again and again: seeded rollouts
/// looked at 20 times on a growing sample, replicated 2,000 times.
///
/// Each look adds 100 units to each arm. Errors are Bernoulli (5% in an A/A rollout); latency is
/// log-normal (median 40 ms, σ 0.6 on the log scale), compared on the log scale. A replication
/// "rejects" when any of its 20 looks does. The rates are judged by their 99% Wilson interval over
/// the 2,000 replications (half-width about 0.01 near 0.05): a rate is shown to be at most a
/// level when its upper bound is, and above a level when its lower bound is.
@Suite("Sequential checks under peeking (seeded simulation)")
struct SequentialPeekingTests {
  static let alpha = 0.05
  static let replications = 2_000
  /// z for a two-sided 99% Wilson interval on a simulated rate.
  static let z99 = 2.5758293035489004

  /// The A/A simulations, run once (off the cooperative pool) and shared by the tests below.
  static let aa = Task {
    try await OffThePool.run {
      [
        Metric.errors: PeekingSimulation.run(.errors, seed: 0x5E0_A11D, effect: 0),
        Metric.latency: PeekingSimulation.run(.latency, seed: 0x5E0_1A7E, effect: 0),
      ]
    }
  }

  @Test(
    "an A/A rollout looked at 20 times is rejected by the sequential test in at most alpha of runs",
    arguments: [Metric.errors, .latency])
  func sequentialHoldsUnderPeeking(metric: Metric) async throws {
    let rates = try #require(try await Self.aa.value[metric])
    let rejected = try #require(Self.interval(rates.sequentialAnyLook))
    #expect(rejected.upper <= Self.alpha, "\(rates)")
    // A rollback is the one-sided breach (interval above 0): rarer still.
    #expect(rates.sequentialBreachAnyLook <= rates.sequentialAnyLook, "\(rates)")
  }

  @Test(
    "the fixed-horizon test at each of the 20 looks rejects an A/A rollout in over twice alpha",
    arguments: [Metric.errors, .latency])
  func fixedHorizonFailsUnderPeeking(metric: Metric) async throws {
    let rates = try #require(try await Self.aa.value[metric])
    let rejected = try #require(Self.interval(rates.fixedAnyLook))
    #expect(rejected.lower > 2 * Self.alpha, "\(rates)")
  }

  @Test(
    "the fixed-horizon test at one look rejects about alpha of A/A rollouts (an honest simulation)",
    arguments: [Metric.errors, .latency])
  func oneLookIsAtAlpha(metric: Metric) async throws {
    let rates = try #require(try await Self.aa.value[metric])
    let oneLook = try #require(Self.interval(rates.fixedAtLastLook))
    #expect(oneLook.lower <= Self.alpha && Self.alpha <= oneLook.upper, "\(rates)")
  }

  @Test(
    "the sequential test detects a doubled error rate or a 10% slowdown within 20 looks",
    arguments: [Metric.errors, .latency])
  func sequentialDetectsARealDifference(metric: Metric) async throws {
    let seed: UInt64 = metric == .errors ? 0xDE7E_C7ED : 0x510_3D0A
    // Errors 5% off against 10% on; latency a geometric mean 10% higher on (ln 1.1).
    let effect = metric == .errors ? 0.05 : log(1.1)
    let rates = try await OffThePool.run {
      PeekingSimulation.run(metric, seed: seed, effect: effect, replications: 500)
    }
    let detected = try #require(
      WilsonInterval(successes: rates.breachCount, trials: rates.replications, z: Self.z99))
    #expect(detected.lower > 0.9, "\(rates)")
  }

  /// The 99% Wilson interval of a simulated rate.
  static func interval(_ rate: Double) -> WilsonInterval? {
    WilsonInterval(
      successes: Int((rate * Double(replications)).rounded()), trials: replications, z: z99)
  }
}

extension SequentialPeekingTests {
  /// The two comparisons a rollout check makes.
  enum Metric: Hashable, Sendable, CustomTestStringConvertible {
    case errors
    case latency
    var testDescription: String { self == .errors ? "error rate" : "latency" }
  }

  /// How often each test rejected over the replications of one simulated rollout.
  struct PeekingSimulation: Sendable, CustomStringConvertible {
    let seed: UInt64
    let replications: Int
    /// The share of replications where the two-sided sequential test rejected at some look.
    let sequentialAnyLook: Double
    /// The share where the sequential interval lay entirely above 0 (on worse) at some look.
    let sequentialBreachAnyLook: Double
    /// The count behind ``sequentialBreachAnyLook``.
    let breachCount: Int
    /// The median look (1…20) of the first breach, among replications that breached.
    let medianFirstBreachLook: Int?
    /// The share where the fixed-horizon test rejected at some look.
    let fixedAnyLook: Double
    /// The share where the fixed-horizon test rejected at the last look alone.
    let fixedAtLastLook: Double

    var description: String {
      "seed \(seed), \(replications) replications: sequential rejected \(sequentialAnyLook) "
        + "(breached \(sequentialBreachAnyLook)) at any look, fixed-horizon \(fixedAnyLook) at any "
        + "look and \(fixedAtLastLook) at the last; median first breach at look "
        + "\(medianFirstBreachLook.map(String.init) ?? "none")"
    }

    static let looks = 20
    static let batch = 100
    static let errorRate = 0.05
    static let logMedian = log(0.040)
    static let logSigma = 0.6

    /// Simulates `replications` rollouts of `looks` looks, the on arm shifted by `effect` (error
    /// rate added, or log-scale latency added).
    static func run(
      _ metric: Metric, seed: UInt64, effect: Double, replications: Int = 2_000
    ) -> PeekingSimulation {
      var random = SeededGenerator(seed: seed)
      let alpha = SequentialPeekingTests.alpha
      var sequential = 0
      var breached = 0
      var firstBreachLooks: [Int] = []
      var fixed = 0
      var fixedLast = 0
      for _ in 0..<replications {
        var arms = (on: Arm(), off: Arm())
        var (rejected, breach, fixedRejected, lastRejected) = (false, false, false, false)
        for look in 1...looks {
          for _ in 0..<batch {
            switch metric {
            case .errors:
              arms.on.addFailure(bernoulli(errorRate + effect, &random))
              arms.off.addFailure(bernoulli(errorRate, &random))
            case .latency:
              // Durations are drawn, then logged, as the check will see them.
              arms.on.addValue(log(exp(logMedian + effect + logSigma * normal(&random))))
              arms.off.addValue(log(exp(logMedian + logSigma * normal(&random))))
            }
          }
          let (seq, fixedP) = compare(metric, arms.on, arms.off, alpha: alpha)
          if let seq, seq.isAboveZero || seq.isBelowZero { rejected = true }
          if let seq, seq.isAboveZero, !breach {
            breach = true
            firstBreachLooks.append(look)
          }
          if fixedP < alpha {
            fixedRejected = true
            if look == looks { lastRejected = true }
          }
        }
        sequential += rejected ? 1 : 0
        breached += breach ? 1 : 0
        fixed += fixedRejected ? 1 : 0
        fixedLast += lastRejected ? 1 : 0
      }
      let n = Double(replications)
      return PeekingSimulation(
        seed: seed, replications: replications, sequentialAnyLook: Double(sequential) / n,
        sequentialBreachAnyLook: Double(breached) / n, breachCount: breached,
        medianFirstBreachLook: firstBreachLooks.sorted().dropFirst(firstBreachLooks.count / 2)
          .first,
        fixedAnyLook: Double(fixed) / n, fixedAtLastLook: Double(fixedLast) / n)
    }

    /// The sequential comparison and the fixed-horizon p-value at one look: for errors the
    /// one-sided pooled two-proportion z-test (``TwoProportionTest``, on > off); for latency the
    /// two-sided z-test on the mean log durations (unpooled variances).
    private static func compare(_ metric: Metric, _ on: Arm, _ off: Arm, alpha: Double)
      -> (SequentialComparison?, Double)
    {
      switch metric {
      case .errors:
        let seq = SequentialComparison.errorRates(
          failuresOn: on.failures, trialsOn: on.count, failuresOff: off.failures,
          trialsOff: off.count, alpha: alpha)
        let fixed = TwoProportionTest(
          successes1: on.failures, trials1: on.count, successes2: off.failures, trials2: off.count)
        return (seq, fixed?.pValue ?? 1)
      case .latency:
        let a = Moments(count: on.count, sum: on.sum, sumOfSquares: on.sumOfSquares)!
        let b = Moments(count: off.count, sum: off.sum, sumOfSquares: off.sumOfSquares)!
        let seq = SequentialComparison.logLatency(on: a, off: b, alpha: alpha)?.logScale
        let z =
          (a.mean - b.mean)
          / (a.variance / Double(a.count) + b.variance / Double(b.count))
          .squareRoot()
        return (seq, erfc(abs(z) / 2.0.squareRoot()))
      }
    }

    /// One arm's running tallies.
    private struct Arm {
      var count = 0
      var failures = 0
      var sum = 0.0
      var sumOfSquares = 0.0

      mutating func addFailure(_ failed: Bool) {
        count += 1
        failures += failed ? 1 : 0
      }

      mutating func addValue(_ value: Double) {
        count += 1
        sum += value
        sumOfSquares += value * value
      }
    }

    /// True with probability `p`: one 64-bit draw against p·2⁶⁴.
    private static func bernoulli(_ p: Double, _ random: inout SeededGenerator) -> Bool {
      random.next() < UInt64(p * 0x1p64)
    }

    /// A standard normal draw (Box-Muller, one of the pair; the other is discarded for clarity).
    private static func normal(_ random: inout SeededGenerator) -> Double {
      let u1 = (Double(random.next() >> 11) + 1) * 0x1p-53
      let u2 = Double(random.next() >> 11) * 0x1p-53
      return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
  }
}
