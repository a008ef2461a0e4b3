import SleeveTestSupport
import Testing

@testable import SleeveQuery

// Reference values below were computed once with Python 3, scipy 1.17.1, statsmodels 0.15.0 and
// numpy 2.4.6; each test names the exact call. Published examples are cited where they exist.

/// Whether `actual` is within `tolerance` of `expected`, relative to the larger of 1 and |expected|.
private func close(_ actual: Double, _ expected: Double, _ tolerance: Double = 1e-12) -> Bool {
  abs(actual - expected) <= tolerance * max(1, abs(expected))
}

private func close(_ actual: [Double], _ expected: [Double], _ tolerance: Double = 1e-12) -> Bool {
  actual.count == expected.count && zip(actual, expected).allSatisfy { close($0, $1, tolerance) }
}

@Suite("Multiple comparisons across the rows of one diff")
struct MultipleComparisonsTests {
  /// Benjamini & Hochberg (1995), J. R. Statist. Soc. B 57:289-300, section 4: the 15 p-values of
  /// the thrombolysis trial's last family of hypotheses (also the worked example of scipy's
  /// `false_discovery_control` documentation, which prints the BH-adjusted values below).
  static let benjaminiHochberg1995 = [
    0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240, 0.4262,
    0.5719, 0.6528, 0.7590, 1.000,
  ]

  @Test("Benjamini-Hochberg reproduces the 1995 paper's example: four discoveries at 0.05")
  func benjaminiHochbergPublishedExample() {
    let q = MultipleComparisons.benjaminiHochberg(Self.benjaminiHochberg1995)
    // statsmodels.stats.multitest.multipletests(ps, method="fdr_bh")[1]; the same numbers as
    // scipy.stats.false_discovery_control(ps) in scipy's documentation.
    let expected = [
      0.0015, 0.003, 0.0095, 0.035625, 0.0603, 0.06385714285714286, 0.06385714285714286, 0.0645,
      0.07650000000000001, 0.48600000000000004, 0.5811818181818182, 0.7148749999999999,
      0.7532307692307693, 0.8132142857142857, 1.0,
    ]
    #expect(close(q, expected), "\(q)")
    // The paper: the step-up procedure rejects the four smallest (Bonferroni only three, as
    // scipy's documentation shows).
    #expect(q.filter { $0 <= 0.05 }.count == 4)
  }

  @Test("Holm rejects three of the 1995 paper's fifteen and matches statsmodels")
  func holmOnThePublishedExample() {
    let adjusted = MultipleComparisons.holm(Self.benjaminiHochberg1995)
    // multipletests(ps, method="holm")[1]
    let expected = [
      0.0015, 0.0056, 0.0247, 0.11399999999999999, 0.2211, 0.27799999999999997,
      0.27799999999999997, 0.27799999999999997, 0.32130000000000003, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    ]
    #expect(close(adjusted, expected), "\(adjusted)")
    #expect(adjusted.filter { $0 <= 0.05 }.count == 3)
  }

  @Test("Holm reproduces the textbook example: of 0.01, 0.04, 0.03, 0.005 only H1 and H4 fall")
  func holmPublishedExample() {
    // Wikipedia, "Holm-Bonferroni method", Example: four hypotheses at α = 0.05 with p-values
    // 0.01, 0.04, 0.03, 0.005; hypotheses one and four are rejected, two and three are not.
    let p = [0.01, 0.04, 0.03, 0.005]
    let adjusted = MultipleComparisons.holm(p)
    // multipletests([0.01, 0.04, 0.03, 0.005], method="holm")[1]
    #expect(close(adjusted, [0.03, 0.06, 0.06, 0.02]), "\(adjusted)")
    #expect(adjusted.map { $0 <= 0.05 } == [true, false, false, true])
    // multipletests([0.01, 0.04, 0.03, 0.005], method="fdr_bh")[1]
    #expect(close(MultipleComparisons.benjaminiHochberg(p), [0.02, 0.04, 0.04, 0.02]))
  }

  @Test("tied p-values get equal adjusted values, as statsmodels gives")
  func tiesGetEqualValues() {
    let p = [0.02, 0.02, 0.01, 0.5, 0.02]
    // multipletests([0.02, 0.02, 0.01, 0.5, 0.02], method="holm")[1] and method="fdr_bh"
    #expect(close(MultipleComparisons.holm(p), [0.08, 0.08, 0.05, 0.5, 0.08]))
    #expect(
      close(
        MultipleComparisons.benjaminiHochberg(p),
        [
          0.024999999999999998, 0.024999999999999998, 0.024999999999999998, 0.5,
          0.024999999999999998,
        ]
      ))
  }

  @Test("the adjusted values come back in the input's order, whatever that order")
  func inputOrderIsKept() {
    let seed: UInt64 = 0x401_3B4
    var generator = SeededGenerator(seed: seed)
    let order = Array(Self.benjaminiHochberg1995.indices).shuffled(using: &generator)
    let shuffled = order.map { Self.benjaminiHochberg1995[$0] }
    let holm = MultipleComparisons.holm(Self.benjaminiHochberg1995)
    let bh = MultipleComparisons.benjaminiHochberg(Self.benjaminiHochberg1995)
    #expect(MultipleComparisons.holm(shuffled) == order.map { holm[$0] }, "seed \(seed)")
    #expect(MultipleComparisons.benjaminiHochberg(shuffled) == order.map { bh[$0] }, "seed \(seed)")
  }

  @Test("no p-values give none; one p-value is its own adjustment")
  func emptyAndSingle() {
    #expect(MultipleComparisons.holm([]).isEmpty)
    #expect(MultipleComparisons.benjaminiHochberg([]).isEmpty)
    // multipletests([0.3], method=...)[1] == [0.3] for both
    #expect(MultipleComparisons.holm([0.3]) == [0.3])
    #expect(MultipleComparisons.benjaminiHochberg([0.3]) == [0.3])
  }

  @Test("NaN counts as a comparison with p = 1; values outside 0...1 are clamped")
  func nonProbabilitiesAreMadeProbabilities() {
    // NaN is one more comparison (m = 2), so 0.01 becomes 0.02 under both methods.
    #expect(MultipleComparisons.holm([.nan, 0.01]) == [1, 0.02])
    #expect(MultipleComparisons.benjaminiHochberg([.nan, 0.01]) == [1, 0.02])
    #expect(MultipleComparisons.holm([.infinity, -.infinity, -3, 7]) == [1, 0, 0, 1])
    #expect(MultipleComparisons.benjaminiHochberg([.infinity, -.infinity]) == [1, 0])
  }

  @Test("adjusted values are at least the raw ones, at most 1, in the raw order, BH below Holm")
  func adjustmentProperties() {
    let seed: UInt64 = 0xB0_4F
    var generator = SeededGenerator(seed: seed)
    for size in [2, 3, 10, 257, 10_000] {
      // Many small p-values and many duplicates, as a diff of many rows has.
      let p = (0..<size).map { _ in
        (Double(Int.random(in: 0...400, using: &generator)) / 400).squareRoot()
          * Double.random(in: 0...1, using: &generator) * 0.2
      }
      let holm = MultipleComparisons.holm(p)
      let bh = MultipleComparisons.benjaminiHochberg(p)
      for i in p.indices {
        #expect(holm[i] >= p[i] && holm[i] <= 1, "seed \(seed) size \(size)")
        #expect(bh[i] >= p[i] && bh[i] <= holm[i], "seed \(seed) size \(size)")
      }
      let order = p.indices.sorted { p[$0] < p[$1] }
      for (a, b) in zip(order, order.dropFirst()) {
        #expect(holm[a] <= holm[b] && bh[a] <= bh[b], "seed \(seed) size \(size)")
      }
    }
  }

  @Test("200,000 p-values adjust without trouble (O(m log m))")
  func manyPValues() {
    let p = (0..<200_000).map { Double($0 % 1_000) / 1_000 }
    let holm = MultipleComparisons.holm(p)
    let bh = MultipleComparisons.benjaminiHochberg(p)
    #expect(holm.count == p.count && bh.count == p.count)
    // 200 zeros: Holm and BH both leave them 0; the largest p (0.999) is 1 under Holm and
    // 0.999 under BH (its own m/m factor).
    #expect(holm[0] == 0 && bh[0] == 0)
    #expect(holm[999] == 1 && close(bh[999], 0.999))
  }
}
