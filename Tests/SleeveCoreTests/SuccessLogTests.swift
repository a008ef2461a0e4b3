import SleeveCore
import Testing

/// Lends dispatch a success log and writes down, at each call, what the log held then: the
/// contract is that each call comes after the successes before it were logged.
@MainActor
final class LoggingObserver: SessionDispatchObserver {
  let log = SuccessLog()
  /// Every call and every logged success, in the order the observer took them.
  private(set) var events: [String] = []
  /// Successes that arrived as calls instead of in the log.
  private(set) var calls = 0
  /// How many successes the log held when each fire ended, before this observer drained it.
  private(set) var heldAtEnd: [Int] = []
  private let names: [RegistrationID: String]

  nonisolated init(names: [RegistrationID: String] = [:]) { self.names = names }

  var successLog: SuccessLog? { log }

  private func take() {
    log.drain { success in
      events.append("ok:\(names[success.registration] ?? "?")")
    }
  }

  func fireBegan(_ fire: FireInfo) {
    take()
    events.append("began:\(fire.control.name)")
  }

  func handlerFinished(_ outcome: HandlerOutcome) {
    take()
    events.append("\(outcome.status.name):\(names[outcome.registration] ?? "?")")
  }

  func handlerSucceeded(
    fire: FireID, registration: RegistrationID, startedAtNanoseconds: Int64,
    durationNanoseconds: Int64
  ) {
    calls += 1
  }

  func fireEnded(_ fire: FireInfo, atNanoseconds: Int64) {
    heldAtEnd.append(log.count)
    take()
    events.append("ended:\(fire.control.name)")
  }
}

/// Ignores the log it lends: dispatch must still empty it after every fire.
@MainActor
final class NeglectfulObserver: SessionDispatchObserver {
  let log = SuccessLog()
  nonisolated init() {}
  var successLog: SuccessLog? { log }
}

@MainActor
@Suite("SuccessLog")
struct SuccessLogTests {
  @Test("an observer that lends a log gets each success there, in order among its other calls")
  func successesKeepTheirPlace() {
    let outer = Button(name: "outer")
    let inner = Button(name: "inner")
    var names: [RegistrationID: String] = [:]
    let first = outer.on(.touchUpInside, id: "first") { _ in }
    let nests = outer.on(.touchUpInside, id: "nests") { _ in inner.sendActions(for: .valueChanged) }
    let fails = outer.on(.touchUpInside, id: "fails") { _ in throw CancellationError() }
    let last = outer.on(.touchUpInside, id: "last") { _ in }
    let nested = inner.on(.valueChanged, id: "nested") { _ in }
    for (registration, name) in [
      (first, "first"), (nests, "nests"), (fails, "fails"), (last, "last"), (nested, "nested"),
    ] {
      names[registration.id] = name
    }
    let observer = LoggingObserver(names: names)
    outer.observer = observer
    inner.observer = observer
    outer.sendActions(for: .touchUpInside)
    #expect(observer.calls == 0, "a lent log replaces the handlerSucceeded calls")
    #expect(
      observer.events == [
        "began:outer", "ok:first", "began:inner", "ok:nested", "ended:inner", "ok:nests",
        "failed:fails", "ok:last", "ended:outer",
      ])
    #expect(observer.heldAtEnd == [1, 1], "each fire's end finds only its own last success")
  }

  @Test("dispatch empties a log its observer never drains after every fire")
  func neglectedLogStaysBounded() {
    let observer = NeglectfulObserver()
    let button = Button(name: "b", observer: observer)
    for index in 0..<5 { button.on(.touchUpInside, id: "h\(index)") { _ in } }
    for _ in 0..<100 { button.sendActions(for: .touchUpInside) }
    #expect(observer.log.isEmpty)
  }

  @Test("drain hands over every entry once, with its fire, registration and times")
  func drainTakesEachEntryOnce() {
    let peek = Peek()
    let button = Button(name: "b", observer: peek)
    let registration = button.on(.touchUpInside, id: "h") { _ in }
    button.sendActions(for: .touchUpInside)
    #expect(peek.taken.count == 1)
    #expect(peek.taken.first?.entry.registration == registration.id)
    #expect(peek.taken.first.map { $0.entry.fire == $0.fire } == true)
    #expect(
      peek.taken.first.map {
        $0.entry.durationNanoseconds >= 0 && $0.entry.startedAtNanoseconds >= $0.began
      } == true)
    #expect(peek.secondDrain == 0, "a drained log is empty")
  }
}

/// Drains the log at each fire's end, twice.
@MainActor
final class Peek: SessionDispatchObserver {
  let log = SuccessLog()
  private(set) var taken: [(entry: SuccessLog.Entry, fire: FireID, began: Int64)] = []
  private(set) var secondDrain = 0
  nonisolated init() {}
  var successLog: SuccessLog? { log }
  func fireEnded(_ fire: FireInfo, atNanoseconds: Int64) {
    log.drain { taken.append(($0, fire.id, fire.atNanoseconds)) }
    log.drain { _ in secondDrain += 1 }
  }
}
