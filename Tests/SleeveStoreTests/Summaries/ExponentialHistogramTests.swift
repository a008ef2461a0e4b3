import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

/// The exponential histogram: OpenTelemetry's mapping, exact merging, its encoding, and the
/// bound of its percentiles against numpy.
@Suite("Exponential histogram")
struct ExponentialHistogramTests {
  /// Seeded durations: log-normal around `median` ns with spread `sigma`.
  static func logNormal(_ count: Int, median: Double, sigma: Double, seed: UInt64) -> [Int64] {
    var random = SeededGenerator(seed: seed)
    return (0..<count).map { _ in
      // Box-Muller on two uniform draws.
      let u = Double.random(in: Double.ulpOfOne..<1, using: &random)
      let v = Double.random(in: 0..<1, using: &random)
      let normal = (-2 * Foundation.log(u)).squareRoot() * Foundation.cos(2 * .pi * v)
      return Int64(min(median * Foundation.exp(sigma * normal), 1e18))
    }
  }

  /// Seeded durations of the three shapes the bound is tested on.
  static func datasets(seed: UInt64) -> [(String, [Int64])] {
    var random = SeededGenerator(seed: seed ^ 0xA5A5)
    let bimodal =
      logNormal(3_000, median: 40_000, sigma: 0.3, seed: seed)
      + logNormal(1_000, median: 25_000_000, sigma: 0.2, seed: seed + 1)
    let heavy = (0..<4_000).map { _ in
      // Pareto, shape 1.1: a tail reaching far past the median.
      let u = Double.random(in: Double.ulpOfOne..<1, using: &random)
      return Int64(min(50_000 / Foundation.pow(u, 1 / 1.1), 9e15))
    }
    return [
      ("lognormal", logNormal(4_000, median: 1_500_000, sigma: 1.2, seed: seed + 2)),
      ("bimodal", bimodal), ("heavy", heavy),
    ]
  }

  static func histogram(_ values: [Int64], buckets: Int = 2_048) -> ExponentialHistogram {
    var histogram = ExponentialHistogram(maximumBuckets: buckets)
    for value in values { histogram.add(value) }
    return histogram
  }

  @Test("the relative error at scale 5 is (2^(1/32) − 1) / (2^(1/32) + 1) = 1.0830%")
  func relativeErrorAtScaleFive() {
    // Python 3: (2**(1/32) - 1) / (2**(1/32) + 1) == 0.010830001253373618
    #expect(abs(ExponentialMapping.relativeError(scale: 5) - 0.010830001253373618) < 1e-15)
    #expect(ExponentialHistogram().relativeError == ExponentialMapping.relativeError(scale: 5))
  }

  @Test("merging is exact addition: merged(h(A), h(B)) == h(A ∪ B), byte for byte, in any order")
  func mergeIsExactUnion() throws {
    let seed = UInt64(Date().timeIntervalSince1970)
    var random = SeededGenerator(seed: seed)
    for round in 0..<40 {
      // Narrow and wide ranges (wide ones force downscales), zeros and negatives included.
      let spread = [0.1, 1, 4, 12][round % 4]
      let a =
        Self.logNormal(
          Int.random(in: 0...300, using: &random), median: 200_000, sigma: spread,
          seed: seed &+ UInt64(round)) + (round % 5 == 0 ? [0, -3] : [])
      let b = Self.logNormal(
        Int.random(in: 0...300, using: &random), median: 9_000_000, sigma: spread,
        seed: seed &+ 1000 &+ UInt64(round))
      let buckets = [2_048, 20, 4][round % 3]
      let merged = try #require(
        Self.histogram(a, buckets: buckets).merged(with: Self.histogram(b, buckets: buckets)))
      let union = Self.histogram((a + b).shuffled(using: &random), buckets: buckets)
      #expect(merged == union, "seed \(seed), round \(round)")
      #expect(HistogramCoding.encode(merged) == HistogramCoding.encode(union), "seed \(seed)")
    }
  }

  @Test("folding many histograms in place (merge) equals the histogram of all their values")
  func inPlaceFoldIsExactUnion() throws {
    let seed = UInt64(Date().timeIntervalSince1970)
    var random = SeededGenerator(seed: seed)
    for round in 0..<20 {
      let buckets = [2_048, 16, 3][round % 3]
      let parts = (0..<6).map { part in
        Self.logNormal(
          Int.random(in: 0...80, using: &random), median: Double(50_000 << (part * 3)),
          sigma: [0.2, 3][round % 2], seed: seed &+ UInt64(round * 10 + part))
      }
      var folded = ExponentialHistogram(maximumBuckets: buckets)
      for part in parts {
        let merged = folded.merge(Self.histogram(part, buckets: buckets))
        #expect(merged)
      }
      let union = Self.histogram(parts.flatMap { $0 }, buckets: buckets)
      #expect(HistogramCoding.encode(folded) == HistogramCoding.encode(union), "seed \(seed)")
    }
    var other = ExponentialHistogram(maximumScale: 3)
    other.add(5)
    var histogram = ExponentialHistogram()
    let merged = histogram.merge(other)
    #expect(!merged)
    #expect(histogram == ExponentialHistogram())
  }

  @Test("a histogram decodes to itself; every truncation and stray byte is refused, never a trap")
  func codingRoundTripsAndRefusesDamage() throws {
    let seed = UInt64(Date().timeIntervalSince1970)
    let histogram = Self.histogram(
      Self.logNormal(500, median: 3_000_000, sigma: 2, seed: seed) + [0, Int64.max, -5])
    let bytes = HistogramCoding.encode(histogram)
    #expect(try HistogramCoding.decode(bytes) == histogram, "seed \(seed)")
    #expect(
      try HistogramCoding.decode(HistogramCoding.encode(ExponentialHistogram()))
        == ExponentialHistogram())
    for length in 0..<bytes.count {
      #expect(throws: HistogramCoding.DecodingError.self, "seed \(seed), length \(length)") {
        try HistogramCoding.decode(Array(bytes.prefix(length)))
      }
    }
    #expect(throws: HistogramCoding.DecodingError.self) { try HistogramCoding.decode(bytes + [0]) }
    // Any single byte changed either decodes to a valid histogram or is refused.
    var random = SeededGenerator(seed: seed)
    for _ in 0..<500 {
      var damaged = bytes
      damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(
        in: 0...255, using: &random)
      if let decoded = try? HistogramCoding.decode(damaged) {
        #expect(decoded.counts.reduce(decoded.zeroCount, +) == decoded.count, "seed \(seed)")
      }
    }
  }

  @Test("a typical handler's summary is well under 1 KB, at scale 5; any durations stay at 5")
  func typicalSizeIsSmall() {
    let histogram = Self.histogram(Self.logNormal(10_000, median: 2_000_000, sigma: 0.8, seed: 7))
    #expect(HistogramCoding.encode(histogram).count < 700)
    #expect(histogram.scale == 5)
    // 1 ns to Int64.max: the default span holds every positive duration without downscaling.
    #expect(Self.histogram([1, 2, 1_000, Int64.max]).scale == 5)
  }

  @Test(
    "bucket indices equal the OpenTelemetry Python SDK's mapping at scales −4 to 8",
    .enabled(
      if: Proofs.run(
        needs: .pythonModule(
          "opentelemetry.sdk.metrics._internal.exponential_histogram.mapping.logarithm_mapping",
          package: "opentelemetry-sdk")),
      "needs opentelemetry-sdk (scripts/requirements-test.txt)"))
  func mappingIsOpenTelemetrys() async throws {
    let seed = UInt64(Date().timeIntervalSince1970)
    var random = SeededGenerator(seed: seed)
    // Powers of two and their neighbours, then random durations over the whole range.
    var values: [Int64] = []
    for exponent in 0..<62 {
      let power = Int64(1) << exponent
      values += [power - 1, power, power + 1].filter { $0 > 0 }
    }
    values += (0..<1_000).map { _ in
      Int64.random(in: 1...Int64.max, using: &random) >> Int64.random(in: 0...60, using: &random)
    }
    values = values.filter { $0 > 0 }
    var lines = ""
    for scale in -4...8 {
      for value in values {
        let index = ExponentialMapping.index(of: Double(value), scale: scale)
        lines += "\(scale) \(value) \(index)\n"
      }
    }
    let directory = TemporaryDirectory()
    let input = directory.path("indices.txt")
    try lines.write(toFile: input, atomically: true, encoding: .utf8)
    let checked = try await ChildProcess.runOffThePool(
      PythonModule.interpreter, [Self.script("check-otel-mapping.py"), input])
    #expect(checked.status == 0, "seed \(seed): \(checked.output)")
    #expect(checked.output == "checked \(13 * values.count)\n", "seed \(seed)")
  }

  @Test(
    "percentiles are within the stated bound of numpy's method='lower' on log-normal, bimodal and heavy-tailed data",
    .enabled(
      if: Proofs.run(needs: .pythonModule("numpy", package: "numpy")),
      "needs numpy (scripts/requirements-test.txt)"))
  func percentilesAreWithinTheirBound() async throws {
    let seed = UInt64(Date().timeIntervalSince1970)
    let points = [0.0, 1, 50, 90, 95, 99, 99.9, 100]
    var lines = ""
    var estimates: [String: (Double, Double)] = [:]
    for (name, values) in Self.datasets(seed: seed) {
      let histogram = Self.histogram(values)
      for point in points {
        lines += "\(name) \(point) " + values.map(String.init).joined(separator: " ") + "\n"
        estimates["\(name) \(point)"] = (
          histogram.lowerPercentile(point) ?? -1, histogram.relativeError
        )
      }
    }
    let directory = TemporaryDirectory()
    let input = directory.path("datasets.txt")
    try lines.write(toFile: input, atomically: true, encoding: .utf8)
    let exact = try await ChildProcess.runOffThePool(
      PythonModule.interpreter, [Self.script("numpy-lower-percentiles.py"), input])
    try #require(exact.status == 0, "\(exact.output)")
    let rows = exact.output.split(separator: "\n")
    #expect(rows.count == 3 * points.count)
    for row in rows {
      let parts = row.split(separator: " ")
      let key = "\(parts[0]) \(parts[1])"
      let truth = try #require(Double(String(parts[2])))
      let (estimate, bound) = try #require(estimates[key])
      #expect(
        abs(estimate - truth) <= bound * truth * (1 + 1e-9),
        "seed \(seed): \(key): \(estimate) against numpy's \(truth) (bound \(bound))")
    }
  }

  static func script(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("scripts/\(name)").path
  }
}
