import SleeveCore
import Testing

@MainActor
@Suite("MultiplexObserver")
struct MultiplexObserverTests {
  @Test("every event reaches every observer, in order, the same as with each alone")
  func fanOut() {
    let alone = RecordingObserver()
    let first = RecordingObserver()
    let second = RecordingObserver()
    for observer in [alone as any DispatchObserver, MultiplexObserver([first, second])] {
      let flags = InMemoryFlagProvider(["f": .enabled])
      let button = Button(name: "b", observer: observer, flags: flags)
      flags.addObserver(observer)
      button.on(.touchUpInside, id: "ok") { _ in }
      let failing = button.on(.touchUpInside, id: "fails") { _ in throw CancellationError() }
      button.on(.touchUpInside, flag: "f", fallback: { _ in }) { _ in }
      button.tap()
      failing.cancel()
      flags.set("f", to: .disabled)
      button.tap()
    }
    #expect(!alone.lines.isEmpty)
    #expect(first.lines == alone.lines)
    #expect(second.lines == first.lines)
    #expect(first.statuses == alone.statuses)
    #expect(first.flagChanges.count == 1 && second.flagChanges.count == 1)
  }
}
