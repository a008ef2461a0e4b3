import SleeveCore
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

@MainActor
@Suite("Summaries as sessions end")
struct SummaryRecordingTests {
  @Test(
    "a session is summarized as it ends, equal to its raw rows; merge copies the summaries byte for byte"
  )
  func endedSessionIsSummarized() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("summaries.sqlite")
    let recorder = try await Recorder(path: path)
    let flags = InMemoryFlagProvider(["new-pay": .enabled])
    let session = try await recorder.startSession(name: "summarized")
    session.record(flags)
    let pay = Button(name: "checkout.pay", flags: flags)
    var count = 0
    pay.on(.touchUpInside, id: "charge") { _ in
      count += 1
      if count % 4 == 0 { throw Declined() }
    }
    pay.on(.touchUpInside, id: "gated", flag: "new-pay", fallback: { _ in }) { _ in }
    session.attach(pay)
    for _ in 0..<40 { pay.tap() }
    let running = try Connection(path: path)
    try await session.flush()
    #expect(try SummaryTables.state(of: session.rowID, connection: running) == nil)
    try await session.end()

    let connection = try Connection(path: path)
    let state = try #require(try SummaryTables.state(of: session.rowID, connection: connection))
    #expect(state.outcomes == 80 && !state.isPruned)
    let stored = try SummaryTables.read(session: session.rowID, connection: connection)
    let rebuilt = try OutcomeSummaries.build(session: session.rowID, connection: connection)
    #expect(stored == rebuilt)
    #expect(stored.values.map(\.ran).sorted() == [40, 40])
    let failures = stored.values.flatMap(\.failures.values).map(\.count)
    #expect(failures == [10])

    let target = try SleeveDatabase.openForWriting(path: directory.path("merged.sqlite"))
    _ = try SessionMerger(target: target).merge(path: path, includeUnterminated: false)
    let blobs = "SELECT variant, ok, failed, hex(histogram) FROM outcome_summaries ORDER BY 1, 2"
    #expect(
      try Inspector(path: directory.path("merged.sqlite")).rows(blobs)
        == Inspector(path: path).rows(blobs))
    #expect(try Inspector(path: path).rows(blobs).count == 2)
  }
}

private struct Declined: Error {}
