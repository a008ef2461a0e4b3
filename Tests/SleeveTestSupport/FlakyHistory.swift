/// A synthetic history of CI runs with known flakes, for `sleeve flaky`: six commits of one to
/// four sessions each (one commit's sessions record two tests), and two sessions that record
/// no commit. The seed varies how many invocations each session has, which of them fail, their
/// durations and messages; the verdicts it is built to have do not depend on it.
///
/// Handlers (registration number: name on control):
/// - 1 `submit` on `CheckoutView`: **flaky**; its sessions disagree on c2 and c5, agree on c1,
///   c3, (c4, A), (c4, B): flake rate 2/6 (2/5 without test identity, c4 being one group).
/// - 2 `charge` on `CheckoutView`: **broken**; clean on c1 and c2, then fails 80–100% of its
///   runs in every session of c3…c6.
/// - 3 `validate` on `CheckoutView`: fails about 5% of its runs in every session: consistent.
/// - 4 `refresh` on `CheckoutView`: flaky on c1 only, clean in the 14 sessions since: **cleared**.
/// - 5 `submit` on `PaymentView`: clean wherever a commit is recorded; fails in one session with
///   no commit (never judged): consistent.
/// - 6 `loader` on `CheckoutView`: runs only on c4, failing in both sessions of test A and in
///   neither of test B: consistent by (commit, test), flaky by commit alone.
public struct FlakyHistory {
  /// The handlers, by registration number.
  public static let handlers: [(number: Int64, name: String, control: String)] = [
    (1, "submit", "CheckoutView"), (2, "charge", "CheckoutView"), (3, "validate", "CheckoutView"),
    (4, "refresh", "CheckoutView"), (5, "submit", "PaymentView"), (6, "loader", "CheckoutView"),
  ]

  /// One planned session: its commit and test (either may be missing) and, per handler number,
  /// the share of its invocations that fail (a handler absent does not run).
  public struct Plan: Sendable {
    /// The session's id.
    public let id: Int64
    /// The commit it built.
    public let commit: String?
    /// The test it recorded.
    public let test: String?
    /// Failure share per handler number.
    public let shares: [Int64: Double]
  }

  /// The commits, oldest first.
  public static let commits = (1...6).map { "C\($0)00FEE\($0)" + String(repeating: "a", count: 32) }

  /// The plan: session ids grow with time.
  public static func plans(recordTests: Bool = true) -> [Plan] {
    let c = commits
    func shares(
      submit: Double = 0, charge: Double = 0, refresh: Double = 0, payment: Double = 0,
      loader: Double? = nil
    ) -> [Int64: Double] {
      var shares: [Int64: Double] = [
        1: submit, 2: charge, 3: 0.05, 4: refresh, 5: payment,
      ]
      shares[6] = loader
      return shares
    }
    let a = recordTests ? "CheckoutTests/a()" : nil
    let b = recordTests ? "CheckoutTests/b()" : nil
    return [
      Plan(id: 1, commit: c[0], test: nil, shares: shares(refresh: 0.3)),
      Plan(id: 2, commit: c[0], test: nil, shares: shares()),
      Plan(id: 3, commit: c[0], test: nil, shares: shares()),
      Plan(id: 4, commit: nil, test: nil, shares: shares(submit: 0.5, payment: 0.5)),
      Plan(id: 5, commit: c[1], test: nil, shares: shares(submit: 0.2)),
      Plan(id: 6, commit: c[1], test: nil, shares: shares()),
      Plan(id: 7, commit: c[2], test: nil, shares: shares(charge: 0.8)),
      Plan(id: 8, commit: c[2], test: nil, shares: shares(charge: 0.8)),
      Plan(id: 9, commit: c[2], test: nil, shares: shares(charge: 0.8)),
      Plan(id: 10, commit: c[3], test: a, shares: shares(charge: 0.8, loader: 0.3)),
      Plan(id: 11, commit: c[3], test: a, shares: shares(charge: 0.8, loader: 0.3)),
      Plan(id: 12, commit: c[3], test: b, shares: shares(charge: 0.8, loader: 0)),
      Plan(id: 13, commit: c[3], test: b, shares: shares(charge: 0.8, loader: 0)),
      Plan(id: 14, commit: nil, test: nil, shares: shares()),
      Plan(id: 15, commit: c[4], test: nil, shares: shares(charge: 0.9)),
      Plan(id: 16, commit: c[4], test: nil, shares: shares(submit: 0.1, charge: 0.9)),
      Plan(id: 17, commit: c[5], test: nil, shares: shares(charge: 1)),
    ]
  }

  /// The fixture.
  public let fixture: FixtureDatabase
  /// The failures written, by session and handler number.
  public private(set) var failures: [Int64: [Int64: Int]] = [:]
  /// Each session's start, Unix nanoseconds.
  public private(set) var started: [Int64: Int64] = [:]

  /// Writes the history; `seed` varies counts, failing invocations, durations and messages.
  public init(seed: UInt64, recordTests: Bool = true) throws {
    fixture = try FixtureDatabase()
    var generator = SeededGenerator(seed: seed)
    for plan in Self.plans(recordTests: recordTests) {
      let seconds = 1_700_000_000 + plan.id * 600 + Int64.random(in: 0..<300, using: &generator)
      try fixture.session(plan.id, name: "CI run \(plan.id)", startedSeconds: seconds)
      started[plan.id] = seconds * 1_000_000_000
      if plan.commit != nil || plan.test != nil {
        try fixture.context(
          session: plan.id, commit: plan.commit, branch: "main", testID: plan.test)
      }
      for handler in Self.handlers {
        try fixture.handler(
          session: plan.id, number: handler.number, name: handler.name,
          control: handler.control, site: "\(handler.control).swift:\(handler.number * 10)")
        guard let share = plan.shares[handler.number] else { continue }
        let count = Int.random(in: 20...60, using: &generator)
        let failing = share > 0 ? max(1, Int((share * Double(count)).rounded())) : 0
        var outcomes = (0..<count).map { index in
          index < failing
            ? FixtureDatabase.Sample(
              Int64.random(in: 1_000...9_000, using: &generator), failed: true,
              errorMessage: "timeout after \(Int.random(in: 1...999, using: &generator)) ms")
            : FixtureDatabase.Sample(Int64.random(in: 1_000...9_000, using: &generator))
        }
        outcomes.shuffle(using: &generator)
        try fixture.samples(session: plan.id, handler: handler.number, outcomes)
        failures[plan.id, default: [:]][handler.number] = failing
      }
    }
  }
}
