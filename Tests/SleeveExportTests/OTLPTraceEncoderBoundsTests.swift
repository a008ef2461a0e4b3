import Foundation
import SleeveExport
import SleeveQuery
import SleeveStore
import SleeveTestSupport
import Testing

/// The resource is the one text every trace request repeats: however large it is within the
/// caps (64 environment variables of 4 KiB), it never outweighs the spans it is repeated for.
@Suite("OTLP trace requests: the resource never outweighs the spans")
struct OTLPTraceEncoderBoundsTests {
  @Test(
    "a resource larger than a request's byte limit is not repeated per fire: at most doubles the spans"
  )
  func largeResourceIsNotRepeatedPerFire() throws {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "alpha")
    try fixture.handler(session: 1, number: 1, name: "validate", control: "checkout.pay")
    try fixture.outcomes(session: 1, handler: 1, durations: Array(repeating: 5, count: 200))
    // Within every cap: 64 variables, each value at the 4,096-byte cap of a message: a
    // resource past the 256 KiB a file line is cut at.
    var environment: [String: String] = [:]
    for index in 0..<RecordedText.maximumEnvironmentVariables {
      environment["VARIABLE_\(index)"] = String(
        repeating: "x", count: RecordedText.Limit.message.bytes)
    }
    let update = try fixture.connection.prepare("UPDATE sessions SET metadata_json = ?")
    try update.bind([
      .text(
        String(
          decoding: try JSONSerialization.data(withJSONObject: ["environment": environment]),
          as: UTF8.self))
    ])
    try update.run()
    let database = try QueryDatabase(path: fixture.path)
    var filter = QueryFilter()
    filter.session = .all
    let session = try #require(try database.sessions(matching: filter).first)
    var bodies: [OTLPRequestBody] = []
    let encoder = OTLPTraceEncoder { bodies.append($0) }
    try encoder.begin(session)
    try database.forEachFireGroup(in: session) { try encoder.add($0) }
    try encoder.flush()
    let resource = try #require(bodies.first?.itemsOffset)
    #expect(resource > OTLPTraceEncoder.fileLimits.bytes, "the resource is not the large one")
    let total = bodies.reduce(0) { $0 + $1.json.utf8.count }
    let spans = bodies.reduce(0) { $0 + $1.json.utf8.count - $1.itemsOffset }
    #expect(bodies.reduce(0) { $0 + $1.items } == 400)
    // One resource for the session, and no more resource bytes in all than span bytes.
    #expect(
      total <= 2 * spans + resource,
      "\(total) bytes in \(bodies.count) requests for \(spans) bytes of spans: the \(resource)-byte resource was repeated per fire"
    )
  }
}
