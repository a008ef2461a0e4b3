import Glibc
import SleeveCore
import Testing

/// Each fire's handler of the probes, counted per variant.
@MainActor
private final class VariantTally {
  var on = 0
  var off = 0
}

/// A class instance a handler can allocate, so the counter has something to see.
private final class Receipt {
  let number: Int
  init(_ number: Int) { self.number = number }
}

/// What the exit tests run in their own process: fires counted by ``SwiftAllocationCounter``.
/// Names are longer than 15 bytes, so none is a small string (see the counter's note).
@MainActor
private enum RolloutAllocationProbe {
  /// Fires counted, after warm-up fires (which may fill caches once).
  nonisolated static let fires = 10_000
  static let warmUpFires = 100
  static let flagKey = "checkout-flow-rewrite-2026"

  /// The Swift allocations of `fires` fires of one handler gated by a rollout at
  /// `basisPoints` by `unit` (a ``RolloutUnit`` as recorded, or `undeclared`), no observer;
  /// `nil` when the unit text or the counter fails, or when a fire ran no variant.
  static func allocations(unit: String, basisPoints: Int) -> Int? {
    guard let percent = RolloutPercentage(basisPoints: basisPoints) else { return nil }
    let declared: RolloutUnit?
    if unit == "undeclared" {
      declared = nil
    } else {
      guard let parsed = RolloutUnit(recorded: unit) else { return nil }
      declared = parsed
    }
    let flags = InMemoryFlagProvider(
      [flagKey: .rollingOut(percent: percent)],
      definitions: [
        FlagDefinition(
          key: flagKey, owner: "payments-platform-team",
          rollout: RolloutPlan(unit: declared, salt: "spring-campaign-salt"))
      ])
    flags.setUnitKey("signed-in-user-0000004711", named: "user-identifier-key")
    let tally = VariantTally()
    let button = Button(name: "checkout-pay-button", observer: nil, flags: flags)
    button.on(.touchUpInside, flag: flagKey, fallback: { _ in tally.off += 1 }) { _ in
      tally.on += 1
    }
    let counted = allocations(firing: button)
    guard tally.on + tally.off == fires + warmUpFires else { return nil }
    return counted
  }

  /// The Swift allocations of `fires` fires of a handler that allocates one object a fire.
  static func allocationsOfAnAllocatingHandler() -> Int? {
    let button = Button(name: "checkout-pay-button")
    var kept: [Receipt] = []
    kept.reserveCapacity(fires + warmUpFires)
    button.on(.touchUpInside) { _ in kept.append(Receipt(kept.count)) }
    let counted = allocations(firing: button)
    guard kept.count == fires + warmUpFires else { return nil }
    return counted
  }

  private static func allocations(firing button: Button) -> Int? {
    for _ in 0..<warmUpFires { button.sendActions(for: .touchUpInside) }
    return SwiftAllocationCounter.count {
      for _ in 0..<fires { button.sendActions(for: .touchUpInside) }
    }
  }
}

@Suite("Rollout memory")
struct RolloutMemoryTests {
  @Test(
    "a fire of a rollout-gated handler with no observer allocates nothing, whatever the unit",
    arguments: ["undeclared", "fire", "session", "key:user-identifier-key", "key:device-id"],
    [5_000, 10_000])
  func rolloutGatedFireAllocatesNothing(unit: String, basisPoints: Int) async {
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardErrorContent],
      "unit \(unit) at \(basisPoints) basis points"
    ) {
      [unit, basisPoints] in
      let counted = await RolloutAllocationProbe.allocations(unit: unit, basisPoints: basisPoints)
      guard counted == 0 else {
        failExitTest("\(counted.map(String.init) ?? "uncounted") allocations in 10,000 fires")
      }
    }
    report(result)
  }

  @Test("the allocation counter sees each object a fire's handler allocates")
  func counterSeesAllocations() async {
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardErrorContent]
    ) {
      let counted = await RolloutAllocationProbe.allocationsOfAnAllocatingHandler()
      guard counted == RolloutAllocationProbe.fires else {
        failExitTest("\(counted.map(String.init) ?? "uncounted") allocations counted")
      }
    }
    report(result)
  }

  /// Records what a failed probe wrote (the count it saw) as an issue of its own.
  private func report(_ result: ExitTest.Result?) {
    guard let result, result.exitStatus != .exitCode(EXIT_SUCCESS) else { return }
    Issue.record("the probe wrote: \(String(decoding: result.standardErrorContent, as: UTF8.self))")
  }
}

/// Ends an exit test's process with status 1 after writing `message` to standard error.
private func failExitTest(_ message: String) -> Never {
  var line = message + "\n"
  line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
  exit(1)
}
