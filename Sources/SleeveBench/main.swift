// Measures the dispatch hot path against a plain loop over the same closures, in one run.
//
//   SleeveBench                      prints the timing table (ns per fire, ratios)
//   SleeveBench --alloc-probe H N    fires N times into H handlers and exits, for counting
//                                    heap allocations with valgrind (see scripts/bench)
import SleeveCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The work every handler does: bump a counter the optimizer cannot see through.
@MainActor
final class Tally {
  var count = 0
}

@MainActor
@inline(never)
func makeHandlers(_ count: Int, tally: Tally) -> [@MainActor (Button) -> Void] {
  (0..<count).map { _ in { _ in tally.count &+= 1 } }
}

@MainActor
@inline(never)
func plainLoop(_ handlers: [@MainActor (Button) -> Void], button: Button, fires: Int) {
  for _ in 0..<fires {
    for handler in handlers { handler(button) }
  }
}

@MainActor
@inline(never)
func dispatchLoop(_ button: Button, fires: Int) {
  for _ in 0..<fires { button.sendActions(for: .touchUpInside) }
}

/// An observer that does the least an observer can do: count outcomes.
final class CountingObserver: DispatchObserver {
  let outcomes = Mutex(0)
  func handlerFinished(_ outcome: HandlerOutcome) { outcomes.withLock { $0 += 1 } }
}

@MainActor
func nanosecondsPerFire(fires: Int, repeats: Int, _ body: () -> Void) -> Double {
  var best = Double.infinity
  for _ in 0..<repeats {
    let start = ContinuousClock.now
    body()
    let elapsed = start.duration(to: .now)
    best = min(best, Double(MonotonicClock.nanoseconds(in: elapsed)) / Double(fires))
  }
  return best
}

@MainActor
func button(with handlers: [@MainActor (Button) -> Void], observer: (any DispatchObserver)?)
  -> Button
{
  let button = Button(name: "bench", observer: observer)
  for handler in handlers { button.on(.touchUpInside, handler) }
  return button
}

func formatted(_ value: Double) -> String {
  let rounded = (value * 10).rounded() / 10
  return String(rounded)
}

@MainActor
func runTimings() {
  let fires = 2_000_000
  let repeats = 7
  print("| handlers | plain loop (ns/fire) | sendActions (ns/fire) | ratio | observed (ns/fire) |")
  print("|---:|---:|---:|---:|---:|")
  for count in [1, 8] {
    let tally = Tally()
    let handlers = makeHandlers(count, tally: tally)
    let quiet = button(with: handlers, observer: nil)
    let observed = button(with: handlers, observer: CountingObserver())
    let plain = nanosecondsPerFire(fires: fires, repeats: repeats) {
      plainLoop(handlers, button: quiet, fires: fires)
    }
    let core = nanosecondsPerFire(fires: fires, repeats: repeats) {
      dispatchLoop(quiet, fires: fires)
    }
    let watched = nanosecondsPerFire(fires: fires / 10, repeats: repeats) {
      dispatchLoop(observed, fires: fires / 10)
    }
    let expected = (2 * fires * repeats + fires / 10 * repeats) * count
    guard tally.count == expected else {
      print("handlers ran \(tally.count) times, expected \(expected)")
      exit(1)
    }
    print(
      "| \(count) | \(formatted(plain)) | \(formatted(core)) | \(formatted(core / plain))x "
        + "| \(formatted(watched)) |")
  }
}

@MainActor
func runProbe(_ mode: String, handlers count: Int, fires: Int) {
  let tally = Tally()
  let handlers = makeHandlers(count, tally: tally)
  let observer: (any DispatchObserver)? = mode == "--observed-probe" ? CountingObserver() : nil
  let probe = button(with: handlers, observer: observer)
  if mode == "--plain-probe" {
    plainLoop(handlers, button: probe, fires: fires)
  } else {
    dispatchLoop(probe, fires: fires)
  }
  print("fired \(fires) times into \(count) handlers: \(tally.count) calls")
}

let arguments = CommandLine.arguments
if arguments.count == 4,
  ["--alloc-probe", "--plain-probe", "--observed-probe"].contains(arguments[1]),
  let count = Int(arguments[2]), let fires = Int(arguments[3])
{
  runProbe(arguments[1], handlers: count, fires: fires)
} else {
  runTimings()
}
