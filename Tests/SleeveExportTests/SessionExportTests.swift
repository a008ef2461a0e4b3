import Foundation
import SleeveCore
import SleeveExport
import SleeveQuery
import SleeveRecorder
import SleeveTestSupport
import Synchronization
import Testing

@MainActor
@Suite(
  "RecorderOptions.export: a session pushed to a collector at its end", .timeLimit(.minutes(10)))
struct SessionExportTests {
  private static func recordOneTap(
    into path: String, options: RecorderOptions
  ) throws -> (Recorder, RecordingSession) {
    let recorder = try Recorder(path: path, options: options)
    let session = try recorder.startSession(name: "pushed")
    let button = Button(name: "pay")
    button.on(.touchUpInside, id: "charge") { _ in }
    session.attach(button)
    button.tap()
    return (recorder, session)
  }

  @Test(
    "a session ends, then goes to the collector: every span arrives and the ledger says delivered",
    .enabled(if: Proofs.run(needs: .python3), "needs python3"))
  func endedSessionIsPushed() async throws {
    let server = try await LoopbackOTLPServer.start(["200"])
    defer { server.stop() }
    let directory = TemporaryDirectory()
    let path = directory.path("pushed.sqlite")
    var options = RecorderOptions()
    options.export = OTLPSessionExport(
      configuration: try OTLPPushConfiguration.resolve(
        flags: OTLPPushFlags(endpoint: server.baseURL), environment: [:]),
      endWait: WaitBounds.hang)
    let (recorder, session) = try Self.recordOneTap(into: path, options: options)
    #expect(session.exportStatus == .none)
    try await session.end()
    #expect(session.exportStatus == .delivered)
    let requests = try server.requests()
    #expect(requests.map(\.path) == ["/v1/traces", "/v1/metrics"])
    let database = try QueryDatabase(path: path)
    let sessions = try database.sessions(matching: QueryFilter())
    // A span per recorded fire and per handler outcome, in the session's resource.
    let spans = (requests.first?.body.components(separatedBy: #""spanId""#).count ?? 0) - 1
    #expect(spans == sessions.map { $0.fires + $0.outcomes }.reduce(0, +))
    #expect(spans >= 2)
    #expect(requests.first?.body.contains(session.uuid) == true)
    let states = try database.deliveryStates(of: sessions).values.flatMap { $0 }
    #expect(states.map(\.outcome) == [.delivered, .delivered])
    #expect(states.allSatisfy { $0.sessionEnded })
    withExtendedLifetime(recorder) {}
  }
}
