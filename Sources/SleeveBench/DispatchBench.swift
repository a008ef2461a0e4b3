import SleeveCore
import Synchronization

/// The work every handler does: bump a counter the optimizer cannot see through.
@MainActor
final class Tally {
  var count = 0
}

/// The dispatch core's benchmark: `sendActions` against a plain loop over the same closures.
@MainActor
enum DispatchBench {
  /// An observer that ignores everything but is still called: the core's own observed cost.
  final class SilentObserver: DispatchObserver {
    func handlerFinished(_ outcome: HandlerOutcome) {}
  }

  /// An observer that does the least an observer can do: count outcomes.
  final class CountingObserver: DispatchObserver {
    let outcomes = Mutex(0)
    func handlerFinished(_ outcome: HandlerOutcome) { outcomes.withLock { $0 += 1 } }
  }

  @inline(never)
  static func makeHandlers(_ count: Int, tally: Tally) -> [@MainActor (Button) -> Void] {
    (0..<count).map { _ in { _ in tally.count &+= 1 } }
  }

  @inline(never)
  static func plainLoop(_ handlers: [@MainActor (Button) -> Void], button: Button, fires: Int) {
    for _ in 0..<fires {
      for handler in handlers { handler(button) }
    }
  }

  @inline(never)
  static func dispatchLoop(_ button: Button, fires: Int) {
    for _ in 0..<fires { button.sendActions(for: .touchUpInside) }
  }

  /// A button with `count` handlers whose body is the plain loop's closures' body
  /// (`tally.count &+= 1`), registered as closure literals, as apps write them.
  static func button(
    handlers count: Int, tally: Tally, observer: (any DispatchObserver)?
  ) -> Button {
    let button = Button(name: "bench", observer: observer)
    for _ in 0..<count { button.on(.touchUpInside) { _ in tally.count &+= 1 } }
    return button
  }

  /// A button with the plain loop's very closures registered. Each leaves an `Array`, whose
  /// elements are stored at the most general abstraction, so the compiler wraps each in a
  /// reabstraction thunk (13 instructions a call) that a closure literal does not need.
  static func button(
    with handlers: [@MainActor (Button) -> Void], observer: (any DispatchObserver)?
  ) -> Button {
    let button = Button(name: "bench", observer: observer)
    for handler in handlers { button.on(.touchUpInside, handler) }
    return button
  }

  /// Prints one process's times, one line per handler count:
  /// `HANDLERS PLAIN CORE SILENT COUNTING`, each the best ns per fire of 5 rounds (plain loop,
  /// `sendActions` with no observer, with a silent observer, with a counting one). The rounds
  /// of the four interleave, so a slow moment of the machine falls on all of them.
  /// `scripts/bench` runs several processes and reports their median, minimum and maximum.
  static func runTimings() throws {
    let fires = 1_000_000
    let rounds = 5
    for count in [1, 8] {
      let tally = Tally()
      let handlers = makeHandlers(count, tally: tally)
      let quiet = button(handlers: count, tally: tally, observer: nil)
      let silent = button(handlers: count, tally: tally, observer: SilentObserver())
      let counting = button(handlers: count, tally: tally, observer: CountingObserver())
      var best = [Double](repeating: .infinity, count: 4)
      for _ in 0..<rounds {
        best[0] = min(
          best[0],
          bestNanoseconds(per: fires, repeats: 1) {
            plainLoop(handlers, button: quiet, fires: fires)
          })
        best[1] = min(
          best[1],
          bestNanoseconds(per: fires, repeats: 1) {
            dispatchLoop(quiet, fires: fires)
          })
        best[2] = min(
          best[2],
          bestNanoseconds(per: fires / 10, repeats: 1) {
            dispatchLoop(silent, fires: fires / 10)
          })
        best[3] = min(
          best[3],
          bestNanoseconds(per: fires / 10, repeats: 1) {
            dispatchLoop(counting, fires: fires / 10)
          })
      }
      let expected = (2 * fires + 2 * (fires / 10)) * rounds * count
      guard tally.count == expected else {
        throw BenchFailure("handlers ran \(tally.count) times, expected \(expected)")
      }
      print(([String(count)] + best.map { String($0) }).joined(separator: " "))
    }
  }

  /// Fires `fires` times into `count` handlers (plain loop, dispatch, or observed dispatch)
  /// and exits: the unit valgrind counts allocations and instructions on.
  static func runProbe(_ mode: String, handlers count: Int, fires: Int) {
    let tally = Tally()
    let handlers = makeHandlers(count, tally: tally)
    let observer: (any DispatchObserver)? =
      switch mode {
      case "--observed-probe": CountingObserver()
      case "--silent-probe": SilentObserver()
      default: nil
      }
    let probe =
      mode == "--array-probe"
      ? button(with: handlers, observer: observer)
      : button(handlers: count, tally: tally, observer: observer)
    if mode == "--plain-probe" {
      plainLoop(handlers, button: probe, fires: fires)
    } else {
      dispatchLoop(probe, fires: fires)
    }
    print("fired \(fires) times into \(count) handlers: \(tally.count) calls")
  }
}

/// A benchmark that could not produce a valid figure.
struct BenchFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// A figure rounded to one decimal.
func formatted(_ value: Double) -> String {
  String((value * 10).rounded() / 10)
}
