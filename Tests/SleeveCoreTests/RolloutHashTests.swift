import Foundation
import SleeveCore
import SleeveTestSupport
import Testing

/// The percentage-rollout assignment: reproducible from its documentation, uniform, monotone.
@Suite struct RolloutHashTests {
  /// Pinned assignments, computed once with `scripts/rollout-bucket` (the documented
  /// algorithm in Python, written apart from the Swift code): a key unit, a fire number, and
  /// a salt that changes the draw.
  @Test(
    "known units land in their documented buckets",
    arguments: [
      ("new-checkout", "", RolloutHash.Unit.text("user-42"), 0x7c55_4070_e789_9c58, 4856),
      ("new-checkout", "", .number(7), 0x2fea_ad1f_2428_c568, 1871),
      ("a", "b", .text("c"), 0xb349_61bb_0924_e952, 7003),
    ] as [(String, String, RolloutHash.Unit, UInt64, Int)])
  func pinnedAssignments(
    key: String, salt: String, unit: RolloutHash.Unit, hash: UInt64, bucket: Int
  ) {
    let computed = RolloutHash.hash(key: key, salt: salt, unit: unit)
    #expect(computed == hash)
    #expect(RolloutHash.bucket(of: computed) == bucket)
  }

  @Test("Sleeve's assignment equals the documented algorithm's for seeded units")
  func matchesTheDocumentedAlgorithm() async throws {
    let seed: UInt64 = 0x5eed_1601
    var random = SeededGenerator(seed: seed)
    var lines: [String] = []
    var expected: [String] = []
    for index in 0..<300 {
      let key = ["new-checkout", "payments.v2", "a", "ünïcødé-key"][index % 4]
      let salt = index % 3 == 0 ? "" : "salt\(random.next() % 1000)"
      let unit: RolloutHash.Unit
      let unitText: String
      if index % 2 == 0 {
        let number = random.next()
        unit = .number(number)
        unitText = "#\(number)"
      } else {
        let text = "user-\(random.next() % 1_000_000)-é"
        unit = .text(text)
        unitText = text
      }
      lines.append("\(key)\t\(salt)\t\(unitText)")
      let hash = RolloutHash.hash(key: key, salt: salt, unit: unit)
      expected.append(
        String(hash, radix: 16).leftPadded(to: 16) + " \(RolloutHash.bucket(of: hash))")
    }
    let directory = TemporaryDirectory()
    let input = directory.path("units.tsv")
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: input, atomically: true, encoding: .utf8)
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("scripts/rollout-bucket").path
    let result = try await ChildProcess.run(PythonModule.interpreter, [script, "--lines", input])
    try #require(result.status == 0, "\(result.output)")
    let printed = result.output.split(separator: "\n").map(String.init)
    #expect(printed == expected, "seed \(seed)")
  }

  /// Chi-square of 200,000 seeded key units over 100 equal ranges of buckets; the 0.1% upper
  /// critical value of chi-square with 99 degrees of freedom is 148.23 (scipy 1.17.1:
  /// `scipy.stats.chi2.ppf(0.999, 99)`), so a uniform assignment stays below it.
  @Test("buckets are uniform over seeded units")
  func bucketsAreUniform() {
    let seed: UInt64 = 0x5eed_1602
    var random = SeededGenerator(seed: seed)
    var counts = [Int](repeating: 0, count: 100)
    let units = 200_000
    for _ in 0..<units {
      let unit = "device-\(random.next())"
      counts[
        RolloutHash.bucket(of: RolloutHash.hash(key: "new-checkout", salt: "", unit: .text(unit)))
          / 100] += 1
    }
    let expected = Double(units) / 100
    let chiSquare = counts.reduce(0.0) { $0 + pow(Double($1) - expected, 2) / expected }
    #expect(chiSquare < 148.23, "seed \(seed): chi-square \(chiSquare) over 99 df")
  }

  @Test("consecutive fire numbers are uniform too (no run of one variant)")
  func sequentialFireNumbersAreUniform() {
    var on = 0
    let percent = RolloutPercentage(basisPoints: 2_500)!
    for number in UInt64(1)...40_000 {
      if RolloutHash.isOn(
        RolloutHash.hash(key: "new-checkout", salt: "", unit: .number(number)), at: percent)
      {
        on += 1
      }
    }
    // Binomial(40,000, 0.25): mean 10,000, sd 86.6; 5 sd either side.
    #expect(abs(on - 10_000) < 433, "\(on) of 40,000 fires on at 25%")
  }

  @Test("raising the percentage only moves units from off to on")
  func raisingIsMonotone() {
    let seed: UInt64 = 0x5eed_1603
    var random = SeededGenerator(seed: seed)
    let shares = [0, 1, 100, 500, 2_500, 5_000, 9_999, 10_000].map {
      RolloutPercentage(basisPoints: $0)!
    }
    for _ in 0..<5_000 {
      let hash = RolloutHash.hash(key: "k", salt: "s", unit: .number(random.next()))
      let served = shares.map { RolloutHash.isOn(hash, at: $0) }
      #expect(served.first == false && served.last == true, "seed \(seed)")
      // Once on, on at every higher share.
      if let firstOn = served.firstIndex(of: true) {
        #expect(served[firstOn...].allSatisfy { $0 }, "seed \(seed): \(served)")
      }
    }
  }

  @Test("the salt and the key each draw a different assignment")
  func saltAndKeyChangeTheDraw() {
    var differByKey = 0
    var differBySalt = 0
    let half = RolloutPercentage(basisPoints: 5_000)!
    for number in UInt64(1)...2_000 {
      let base = RolloutHash.isOn(
        RolloutHash.hash(key: "a", salt: "", unit: .number(number)), at: half)
      if base
        != RolloutHash.isOn(RolloutHash.hash(key: "b", salt: "", unit: .number(number)), at: half)
      {
        differByKey += 1
      }
      if base
        != RolloutHash.isOn(RolloutHash.hash(key: "a", salt: "x", unit: .number(number)), at: half)
      {
        differBySalt += 1
      }
    }
    // Independent draws disagree on about half the units.
    #expect((850...1_150).contains(differByKey))
    #expect((850...1_150).contains(differBySalt))
  }

  @Test(
    "percentages parse to basis points and print without trailing zeros",
    arguments: [
      (25.0, 2_500, "25%"), (0.5, 50, "0.5%"), (12.25, 1_225, "12.25%"), (0.01, 1, "0.01%"),
      (100.0, 10_000, "100%"), (0.0, 0, "0%"), (33.3, 3_330, "33.3%"),
    ] as [(Double, Int, String)])
  func percentagesParse(percent: Double, basisPoints: Int, shown: String) throws {
    let share = try #require(RolloutPercentage(percent: percent))
    #expect(share.basisPoints == basisPoints)
    #expect(share.description == shown)
  }

  @Test(
    "a percentage outside 0...100, with three decimals or not finite is refused",
    arguments: [-0.01, 100.01, 0.125, .nan, .infinity, -.infinity, 1e300])
  func badPercentagesAreRefused(percent: Double) {
    #expect(RolloutPercentage(percent: percent) == nil)
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
