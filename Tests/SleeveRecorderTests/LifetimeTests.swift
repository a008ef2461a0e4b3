import Foundation
import SleeveCore
import SleeveRecorder
import SleeveTestSupport
import Testing

@MainActor
@Suite("Lifetimes")
struct LifetimeTests {
  @Test("a recorder is released once its sessions and controls are gone, and closes its file")
  func recorderIsReleased() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("lifetime.sqlite")
    weak var weakRecorder: Recorder?
    weak var weakSession: RecordingSession?
    do {
      let recorder = try Recorder(path: path)
      weakRecorder = recorder
      let session = try recorder.startSession(name: "lifetime")
      weakSession = session
      let flags = InMemoryFlagProvider(
        ["f": .enabled], definitions: [FlagDefinition(key: "f", owner: "o")])
      session.attach(flags)
      let button = Button(name: "b", observer: session, flags: flags)
      button.on(.touchUpInside) { _ in }
      button.on(.touchUpInside, flag: "f") { _ in }
      button.on(.valueChanged) { _ in try await Task.sleep(for: .milliseconds(1)) }
      button.sendActions(for: .valueChanged)
      await button.waitUntilIdle()
      final class Owner {}
      var owner: Owner? = Owner()
      if let owner { button.on(.primaryActionTriggered, owner: owner) { _, _ in } }
      button.tap()
      owner = nil
      button.tap()
      let field = TextField(name: "t", observer: session)
      field.on(.editingChanged) { _ in }
      field.type("ab")
      try await session.end()
    }
    #expect(weakSession == nil)
    #expect(weakRecorder == nil)
    // The writer closed the connection before the recorder let go: the WAL is checkpointed
    // and removed.
    #expect(FileManager.default.fileExists(atPath: path))
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
  }
}
