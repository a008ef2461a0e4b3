import SleeveCore
import Testing

/// A provider must not keep the sessions it reports to alive (each holds a recorder, its
/// writer thread and its file), and must stop calling the ones that are gone.
@MainActor
@Suite("Flag provider observers")
struct FlagObserverLifetimeTests {
  /// A value-type observer that counts the changes it sees.
  struct CountingObserver: DispatchObserver {
    let count: Locked<Int>
    @MainActor func flagChanged(_ change: FlagChange) { count.withLock { $0 += 1 } }
  }

  @Test("a class observer is held weakly: once released it is gone and no longer called")
  func classObserversAreWeak() {
    let flags = InMemoryFlagProvider(["f": .enabled])
    weak var released: RecordingObserver?
    do {
      let observer = RecordingObserver()
      released = observer
      flags.addObserver(observer)
      flags.set("f", to: .disabled)
      #expect(observer.flagChanges.count == 1)
      #expect(flags.observerCount == 1)
    }
    #expect(released == nil, "the provider kept its observer alive")
    flags.set("f", to: .enabled)
    #expect(flags.observerCount == 0)
  }

  @Test("removeObserver stops the reports to that observer and no other")
  func removal() {
    let flags = InMemoryFlagProvider()
    let first = RecordingObserver()
    let second = RecordingObserver()
    flags.addObserver(first)
    flags.addObserver(second)
    flags.set("f", to: .enabled)
    flags.removeObserver(first)
    flags.set("f", to: .disabled)
    #expect(first.flagChanges.map(\.state) == [.enabled])
    #expect(second.flagChanges.map(\.state) == [.enabled, .disabled])
  }

  @Test("a value observer is kept and called for every change")
  func valueObserversAreKept() {
    let flags = InMemoryFlagProvider()
    let count = Locked(0)
    flags.addObserver(CountingObserver(count: count))
    flags.set("f", to: .enabled)
    flags.set("f", to: .rolledBack(reason: "r"))
    #expect(count.withLock { $0 } == 2)
  }
}
