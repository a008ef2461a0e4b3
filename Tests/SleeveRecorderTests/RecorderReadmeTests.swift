import SleeveCore
import SleeveRecorder
import SleeveTestSupport
import Testing

@MainActor
@Suite("README and the recording page, recorder example")
struct RecorderReadmeTests {
  struct Declined: Error {}

  @Test("the recorder example of README and the recording page runs and records what it says")
  func readmeRecorderExampleRuns() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("sleeve.sqlite")
    var attempts = 0
    func charge() throws {
      attempts += 1
      if attempts % 10 == 0 { throw Declined() }
    }
    // RECORDER:begin
    let recorder = try await Recorder(path: path)  // creates and migrates the file
    let session = try await recorder.startSession(
      name: "CheckoutTests", tags: ["ci"], environment: ["CI"])

    let pay = Button(name: "checkout.pay")
    pay.on(.touchUpInside, id: "charge") { _ in try charge() }
    session.attach(pay)  // or create controls inside `await session.observe { … }`

    for _ in 0..<100 { pay.tap() }
    try await session.end()  // writes what is buffered; the session reads as ended
    // sleeve.sqlite now holds 300 fires and 100 outcomes of "charge": 90 ok, 10 failed
    // RECORDER:end
    let reader = try Inspector(path: path)
    #expect(try reader.count("fires") == 300)
    #expect(
      try reader.rows(
        "SELECT s.name, count(*) FROM outcomes o JOIN outcome_statuses s ON s.code = o.status "
          + "GROUP BY 1 ORDER BY 1") == ["failed|10", "ok|90"])
  }

  @Test(
    "README and the recording page show exactly the recorder example this suite runs",
    arguments: [
      ("README.md", "## Record a session"), ("docs/guide/recording.md", "## Recording sessions"),
    ])
  func readmeShowsTheTestedRecorderExample(document: String, heading: String) throws {
    let (tested, shown) = try ReadmeSnippet.pair(
      testFile: #filePath, marker: "RECORDER", heading: heading, in: document)
    #expect(!tested.isEmpty)
    #expect(tested == shown)
  }
}
