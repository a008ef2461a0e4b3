import Foundation

/// A seeded history of runs with known changes, for comparisons across runs: `baselineRuns`
/// sessions on `main` (commits `c0…`, two sessions each), then one candidate session on
/// `feature` whose handlers behave as each ``Handler/Change`` says.
public struct SyntheticHistory {
  /// How a handler changes in the candidate.
  public enum Change: Sendable, Equatable {
    /// Same distribution on both sides.
    case none
    /// Durations multiplied by this factor.
    case slower(Double)
    /// Durations multiplied by this factor (below 1).
    case faster(Double)
    /// Error rate from the baseline's to this.
    case moreErrors(Double)
    /// A failure of a kind the baseline never had, `count` times.
    case newFailureType(count: Int)
    /// Only the candidate has it.
    case new
    /// Only the baseline has it.
    case gone
  }

  /// One handler of the history.
  public struct Handler: Sendable {
    /// Its `id:`.
    public let name: String
    /// Its control.
    public let control: String
    /// Invocations per session.
    public let perSession: Int
    /// Its median duration, nanoseconds.
    public let medianNanoseconds: Int64
    /// Its baseline error rate.
    public let errorRate: Double
    /// How it changes in the candidate.
    public let change: Change
    /// The candidate runs (0, 1, …) the change shows in; `nil`: all of them.
    public let changedRuns: Set<Int>?

    /// A handler.
    public init(
      _ name: String, control: String = "CheckoutView", perSession: Int = 200,
      medianNanoseconds: Int64 = 2_000_000, errorRate: Double = 0.01, change: Change = .none,
      changedRuns: Set<Int>? = nil
    ) {
      self.changedRuns = changedRuns
      self.name = name
      self.control = control
      self.perSession = perSession
      self.medianNanoseconds = medianNanoseconds
      self.errorRate = errorRate
      self.change = change
    }
  }

  /// The database.
  public let fixture: FixtureDatabase
  /// The (last) candidate's session id.
  public let candidate: Int64
  /// The seed.
  public let seed: UInt64

  /// Records the history: session ids 1…`baselineRuns` on main, then the candidate.
  public init(
    seed: UInt64, baselineRuns: Int = 10, candidateRuns: Int = 1, handlers: [Handler],
    testID: String? = nil
  ) throws {
    self.seed = seed
    var random = SeededGenerator(seed: seed)
    fixture = try FixtureDatabase()
    candidate = Int64(baselineRuns + candidateRuns)
    for id in 1...candidate {
      let run = Int(id) - baselineRuns - 1
      let inCandidate = run >= 0
      try fixture.session(
        id, name: inCandidate ? "candidate" : "main run", startedSeconds: 1_700_000_000 + id * 60)
      try fixture.context(
        session: id, commit: inCandidate ? "feedface000\(run)" : "c0\(String((id + 1) / 2))aaaa",
        branch: inCandidate ? "feature" : "main", testID: testID)
      for (index, handler) in handlers.enumerated() {
        let isCandidate = inCandidate && (handler.changedRuns?.contains(run) ?? true)
        if inCandidate && handler.change == .gone { continue }
        if !inCandidate && handler.change == .new { continue }
        let number = Int64(index + 1)
        try fixture.handler(
          session: id, number: number, name: handler.name, control: handler.control,
          identifier: handler.name, site: "Checkout.swift:\(10 + index)")
        var samples: [FixtureDatabase.Sample] = []
        var rate = handler.errorRate
        var factor = 1.0
        switch handler.change {
        case .slower(let f), .faster(let f): if isCandidate { factor = f }
        case .moreErrors(let r): if isCandidate { rate = r }
        default: break
        }
        for _ in 0..<handler.perSession {
          // Log-normal-ish: the median times e^(0.3 · a sum of three uniforms centred on 0).
          let noise = (0..<3).map { _ in Double.random(in: -1...1, using: &random) }.reduce(0, +)
          let duration = Int64(Double(handler.medianNanoseconds) * factor * exp(0.3 * noise))
          let failed = Double.random(in: 0..<1, using: &random) < rate
          samples.append(
            .init(duration, failed: failed, errorMessage: failed ? "card declined" : nil))
        }
        if isCandidate, case .newFailureType(let count) = handler.change {
          for index in 0..<min(count, samples.count) {
            samples[index] = .init(
              samples[index].duration, failed: true, errorType: "DecodingError",
              errorMessage: "missing key 'total' at offset \(index * 17)")
          }
        }
        try fixture.samples(session: id, handler: number, samples)
      }
    }
  }
}
