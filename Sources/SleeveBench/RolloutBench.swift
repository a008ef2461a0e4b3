import Foundation
import SleeveCore
import SleeveRecorder
import SleeveStore

/// Percentage rollouts on the dispatch path: one handler fired with no observer, ungated,
/// gated by an on/off flag, and gated by a 50% rollout per fire, per key and per session, all
/// in one process (see scripts/bench, `SLEEVE_BENCH_ONLY=rollout`); the on/off flag and the
/// rollouts by fire and key again through a provider that is not an `InMemoryFlagProvider`.
@MainActor
enum RolloutBench {
  /// The handler each case fires.
  enum Case: String, CaseIterable {
    /// A plain closure handler: no flag to evaluate.
    case ungated
    /// Gated by a flag in state `enabled`.
    case onOff = "on-off"
    /// Gated by a flag rolling out at 50%, unit fire.
    case rolloutFire = "rollout-fire"
    /// Gated by a flag rolling out at 50%, unit `key("user")`, with the key set.
    case rolloutKey = "rollout-key"
    /// Gated by a flag rolling out at 50%, unit session (no observer: the process's unit).
    case rolloutSession = "rollout-session"
    /// (b) through a provider that is not an ``InMemoryFlagProvider``.
    case forwardedOnOff = "forwarded-on-off"
    /// (c) through a provider that is not an ``InMemoryFlagProvider``.
    case forwardedRolloutFire = "forwarded-rollout-fire"
    /// (d) through a provider that is not an ``InMemoryFlagProvider``.
    case forwardedRolloutKey = "forwarded-rollout-key"
    /// (b) through a `DatabaseFlagProvider` reading a file.
    case databaseOnOff = "database-on-off"
    /// (c) through a `DatabaseFlagProvider` reading a file.
    case databaseRolloutFire = "database-rollout-fire"
    /// (d) through a `DatabaseFlagProvider` reading a file.
    case databaseRolloutKey = "database-rollout-key"
  }

  /// A provider that answers only the three plain questions, as an app's own may: it forwards
  /// each to an ``InMemoryFlagProvider``, so each answer costs a lock and a lookup, and a
  /// rollout takes `FlagProvider.rolloutInputs(of:)`'s default (its definition and unit key
  /// asked for, and hashed, at each fire).
  struct ForwardingFlagProvider: FlagProvider {
    let inner: InMemoryFlagProvider
    func state(of key: String) -> FlagState? { inner.state(of: key) }
    func definition(of key: String) -> FlagDefinition? { inner.definition(of: key) }
    func unitKey(named name: String) -> String? { inner.unitKey(named: name) }
  }

  /// The flag every gated case names.
  static let flagKey = "bench-checkout"

  /// A button with one handler for `benchCase`, bumping `tally` on either variant (primary
  /// and fallback do the same work, so a rollout's split does not change the handler's cost).
  static func button(for benchCase: Case, tally: Tally) -> Button {
    let half = RolloutPercentage(basisPoints: 5_000)!
    let memory: InMemoryFlagProvider
    switch benchCase {
    case .ungated, .onOff, .forwardedOnOff, .databaseOnOff, .databaseRolloutFire,
      .databaseRolloutKey:
      memory = InMemoryFlagProvider([flagKey: .enabled])
    case .rolloutFire, .forwardedRolloutFire:
      memory = provider(half, unit: .fire)
    case .rolloutKey, .forwardedRolloutKey:
      memory = provider(half, unit: .key("user"))
      memory.setUnitKey("user-4711", named: "user")
    case .rolloutSession:
      memory = provider(half, unit: .session)
    }
    let flags: any FlagProvider
    switch benchCase {
    case .forwardedOnOff, .forwardedRolloutFire, .forwardedRolloutKey:
      flags = ForwardingFlagProvider(inner: memory)
    case .databaseOnOff, .databaseRolloutFire, .databaseRolloutKey:
      flags = databaseProvider(for: benchCase)
    default:
      flags = memory
    }
    let button = Button(name: "bench", observer: nil, flags: flags)
    if benchCase == .ungated {
      button.on(.touchUpInside) { _ in tally.count &+= 1 }
    } else {
      button.on(
        .touchUpInside, flag: flagKey, fallback: { _ in tally.count &+= 1 }
      ) { _ in tally.count &+= 1 }
    }
    return button
  }

  /// A `DatabaseFlagProvider` over a fresh file in the temporary directory holding the case's
  /// state (recorded as `sleeve enable` or `sleeve rollout` would), the definition from code.
  /// The bench exits on a file it cannot make: a figure never comes from another path.
  private static func databaseProvider(for benchCase: Case) -> DatabaseFlagProvider {
    let path = NSTemporaryDirectory() + "sleeve-rollout-bench-\(UUID().uuidString).sqlite"
    defer {
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
      }
    }
    do {
      let ledger = FlagLedger(connection: try SleeveDatabase.openForWriting(path: path))
      let unit: RolloutUnit = benchCase == .databaseRolloutKey ? .key("user") : .fire
      if benchCase == .databaseOnOff {
        try ledger.record(
          .init(
            key: flagKey, state: RecordCodes.FlagChangeState.enabled.name, reason: nil,
            actor: "bench"))
      } else {
        try ledger.record(
          .init(
            key: flagKey, state: RecordCodes.FlagChangeState.rollingOut.name, reason: nil,
            actor: "bench",
            rolloutBasisPoints: 5_000))
      }
      let flags = try DatabaseFlagProvider(
        path: path,
        definitions: [
          FlagDefinition(
            key: flagKey, owner: "bench", rollout: RolloutPlan(unit: unit, salt: "bench-salt"))
        ])
      if benchCase == .databaseRolloutKey { flags.setUnitKey("user-4711", named: "user") }
      return flags
    } catch {
      FileHandle.standardError.write(Data("rollout bench: \(error)\n".utf8))
      exit(70)
    }
  }

  private static func provider(_ percent: RolloutPercentage, unit: RolloutUnit)
    -> InMemoryFlagProvider
  {
    InMemoryFlagProvider(
      [flagKey: .rollingOut(percent: percent)],
      definitions: [
        FlagDefinition(
          key: flagKey, owner: "bench", rollout: RolloutPlan(unit: unit, salt: "bench-salt"))
      ])
  }

  /// Prints one line per case, `CASE NS`: its best nanoseconds per fire over 7 rounds of
  /// 1,000,000 fires, the cases interleaved in each round so they share the machine's noise.
  static func printTimings() throws {
    let fires = 1_000_000
    let rounds = 7
    let tally = Tally()
    let buttons = Case.allCases.map { button(for: $0, tally: tally) }
    var best = [Double](repeating: .infinity, count: buttons.count)
    for _ in 0..<rounds {
      for (index, button) in buttons.enumerated() {
        let nanoseconds = bestNanoseconds(per: fires, repeats: 1) {
          DispatchBench.dispatchLoop(button, fires: fires)
        }
        best[index] = min(best[index], nanoseconds)
      }
    }
    let expected = fires * rounds * buttons.count
    guard tally.count == expected else {
      throw BenchFailure("handlers ran \(tally.count) times, expected \(expected)")
    }
    for (benchCase, nanoseconds) in zip(Case.allCases, best) {
      print(benchCase.rawValue, nanoseconds)
    }
  }

  /// Fires `fires` times into the handler of `benchCase` and exits: the unit valgrind counts
  /// allocations and instructions on.
  static func runProbe(_ benchCase: Case, fires: Int) {
    let tally = Tally()
    let probe = button(for: benchCase, tally: tally)
    DispatchBench.dispatchLoop(probe, fires: fires)
    print("fired \(fires) times into \(benchCase.rawValue): \(tally.count) calls")
  }
}
