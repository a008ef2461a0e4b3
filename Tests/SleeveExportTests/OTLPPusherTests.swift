import Foundation
import SleeveExport
import SleeveQuery
import SleeveStore
import SleeveTestSupport
import Synchronization
import Testing

/// A sender that accepts or fails requests by their position, and keeps what it was sent.
private final class ScriptedSender: OTLPRequestSending {
  struct Sent: Sendable {
    let signal: OTLPSignal
    let body: String
  }

  private let failures: [Int: OTLPPushError]
  private let rejectedPerRequest: Int64
  private let log = Mutex<[Sent]>([])

  /// Fails the `n`-th request (from 1) with `failures[n]`; accepts the rest, each with
  /// `rejectedPerRequest` items refused.
  init(failures: [Int: OTLPPushError] = [:], rejectedPerRequest: Int64 = 0) {
    self.failures = failures
    self.rejectedPerRequest = rejectedPerRequest
  }

  var sent: [Sent] { log.withLock { $0 } }

  func send(_ body: [UInt8], signal: OTLPSignal) async -> Result<OTLPAccepted, OTLPPushError> {
    let count = log.withLock { sent in
      sent.append(Sent(signal: signal, body: String(decoding: body, as: UTF8.self)))
      return sent.count
    }
    if let failure = failures[count] { return .failure(failure) }
    return .success(OTLPAccepted(rejected: rejectedPerRequest, message: nil, attempts: 1))
  }

  func endpoint(for signal: OTLPSignal) -> String { "http://127.0.0.1:4318/" + signal.path }

  static func unreachable(_ message: String = "connection refused") -> OTLPPushError {
    OTLPPushError(
      kind: .unreachable, endpoint: "http://127.0.0.1:4318/v1/traces", message: message,
      attempts: 3)
  }

  static let refused = OTLPPushError(
    kind: .rejected(status: 400), endpoint: "http://127.0.0.1:4318/v1/traces",
    message: "bad span", attempts: 1)
}

/// A sender whose answers take seeded random times (so they come back out of order), failing
/// the `failAt`-th request as unreachable; it keeps the bodies it accepted.
///
/// Concurrent sends share no lock: the request number is an atomic counter, each request's delay
/// comes from a generator of its own (seeded by the run's seed and its number), and the bodies go
/// to an actor. A contended `Mutex` here made ThreadSanitizer report its guarded state as raced:
/// the lock's contended path runs in the uninstrumented runtime, so the order it gives is
/// invisible to the sanitizer.
private final class ShuffledSender: OTLPRequestSending {
  private let seed: UInt64
  private let failAt: Int?
  private let count = Atomic<Int>(0)
  private let bodies = AcceptedBodies()

  init(seed: UInt64, failAt: Int?) {
    self.seed = seed
    self.failAt = failAt
  }

  var accepted: [String] { get async { await bodies.all } }

  func send(_ body: [UInt8], signal: OTLPSignal) async -> Result<OTLPAccepted, OTLPPushError> {
    let number = count.wrappingAdd(1, ordering: .relaxed).newValue
    var random = SeededGenerator(seed: seed &+ UInt64(number) &* 0x9E37_79B9_7F4A_7C15)
    try? await Task.sleep(for: .milliseconds(UInt64.random(in: 0...20, using: &random)))
    if number == failAt { return .failure(ScriptedSender.unreachable()) }
    await bodies.append(String(decoding: body, as: UTF8.self))
    return .success(OTLPAccepted())
  }

  func endpoint(for signal: OTLPSignal) -> String { "http://127.0.0.1:4318/" + signal.path }
}

/// The bodies a ``ShuffledSender`` accepted, in the order they arrived.
private actor AcceptedBodies {
  private(set) var all: [String] = []

  func append(_ body: String) { all.append(body) }
}

/// The span ids of OTLP/JSON trace requests, in order.
private func spanIDs(_ bodies: [String]) throws -> [String] {
  var ids: [String] = []
  for body in bodies {
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
    for resource in json["resourceSpans"] as? [[String: Any]] ?? [] {
      for scope in resource["scopeSpans"] as? [[String: Any]] ?? [] {
        for span in scope["spans"] as? [[String: Any]] ?? [] {
          ids.append((span["traceId"] as? String ?? "") + "/" + (span["spanId"] as? String ?? ""))
        }
      }
    }
  }
  return ids
}

private func allSessions() -> QueryFilter {
  var filter = QueryFilter()
  filter.session = .all
  return filter
}

/// Small requests (4 spans) so the standard fixture's sessions take several each, one at a
/// time so the order of answers is known (`concurrentAnswersResume` sends several at once).
private let small = OTLPPushOptions(
  signals: [.traces], spansPerRequest: 4, concurrentRequests: 1)

@Suite("OTLP push: resumable and idempotent")
struct OTLPPusherTests {
  /// Every span of the file export, once: the reference a push is compared with.
  private static func fileSpans(_ fixture: FixtureDatabase) throws -> [String] {
    let database = try QueryDatabase(path: fixture.path)
    var bodies: [String] = []
    let encoder = OTLPTraceEncoder { bodies.append($0.json) }
    for session in try database.sessions(matching: allSessions()) {
      try encoder.begin(session)
      try database.forEachFireGroup(in: session) { try encoder.add($0) }
    }
    try encoder.flush()
    return try spanIDs(bodies)
  }

  @Test("a push sends every span of the selection exactly once, in requests of bounded size")
  func pushSendsEverySpanOnce() async throws {
    let fixture = try FixtureDatabase.standard()
    let sender = ScriptedSender()
    let report = try await OTLPPusher(databasePath: fixture.path, sender: sender, options: small)
      .push(matching: allSessions())
    let sent = try spanIDs(sender.sent.map(\.body))
    #expect(sent == (try Self.fileSpans(fixture)))
    #expect(Set(sent).count == sent.count)
    #expect(try sender.sent.allSatisfy { try spanIDs([$0.body]).count <= 4 })
    #expect(report.deliveries.map(\.outcome) == [.delivered, .delivered])
    #expect(report.deliveries.map(\.items).reduce(0, +) == sent.count)
  }

  @Test("a second push of the same sessions sends nothing and says every request was delivered")
  func secondPushSendsNothing() async throws {
    let fixture = try FixtureDatabase.standard()
    let first = ScriptedSender()
    let pusher = OTLPPusher(databasePath: fixture.path, sender: first, options: small)
    let before = try await pusher.push(matching: allSessions())
    let second = ScriptedSender()
    let again = try await OTLPPusher(databasePath: fixture.path, sender: second, options: small)
      .push(matching: allSessions())
    #expect(second.sent.isEmpty)
    #expect(again.deliveries.map(\.skipped) == before.deliveries.map(\.sent))
    #expect(again.deliveries.map(\.outcome) == [.delivered, .delivered])
  }

  @Test("an endpoint unreachable at request k stops the push; the next one sends k onwards, once")
  func unreachableStopsAndResumes() async throws {
    let fixture = try FixtureDatabase.standard()
    let everything = try Self.fileSpans(fixture)
    let failing = ScriptedSender(failures: [3: ScriptedSender.unreachable()])
    let report = try await OTLPPusher(databasePath: fixture.path, sender: failing, options: small)
      .push(matching: allSessions())
    #expect(report.unreachable == ScriptedSender.unreachable())
    // Nothing after the failed request was tried: the push stopped there.
    #expect(failing.sent.count == 3)
    let delivered = try spanIDs(failing.sent.prefix(2).map(\.body))
    let resumed = ScriptedSender()
    let rerun = try await OTLPPusher(databasePath: fixture.path, sender: resumed, options: small)
      .push(matching: allSessions())
    let rest = try spanIDs(resumed.sent.map(\.body))
    #expect(delivered + rest == everything)
    #expect(rerun.deliveries.first?.skipped == 2)
    #expect(rerun.deliveries.map(\.outcome) == [.delivered, .delivered])
  }

  @Test(
    "with several requests on the wire, answers in any order, a failure and a rerun: each span once",
    arguments: [1, 7, 42] as [UInt64])
  func concurrentAnswersResume(seed: UInt64) async throws {
    let fixture = try FixtureDatabase.standard()
    let everything = try Self.fileSpans(fixture)
    var options = small
    options.concurrentRequests = 3
    let failing = ShuffledSender(seed: seed, failAt: 4)
    let report = try await OTLPPusher(databasePath: fixture.path, sender: failing, options: options)
      .push(matching: allSessions())
    #expect(report.unreachable != nil, "seed \(seed)")
    let accepted = try await spanIDs(failing.accepted)
    let resumed = ShuffledSender(seed: seed &+ 1, failAt: nil)
    _ = try await OTLPPusher(databasePath: fixture.path, sender: resumed, options: options)
      .push(matching: allSessions())
    let rest = try await spanIDs(resumed.accepted)
    #expect((accepted + rest).sorted() == everything.sorted(), "seed \(seed)")
    #expect(Set(accepted).isDisjoint(with: rest), "seed \(seed)")
  }

  @Test("a refused request fails its session's signal, records nothing for it, and others go on")
  func refusalFailsOneSession() async throws {
    let fixture = try FixtureDatabase.standard()
    let sender = ScriptedSender(failures: [1: ScriptedSender.refused])
    let report = try await OTLPPusher(databasePath: fixture.path, sender: sender, options: small)
      .push(matching: allSessions())
    #expect(report.deliveries.first?.outcome == .failed(ScriptedSender.refused))
    #expect(report.deliveries.last?.outcome == .delivered)
    #expect(report.refused == ScriptedSender.refused)
    let database = try QueryDatabase(path: fixture.path)
    let sessions = try database.sessions(matching: allSessions())
    let alpha = try #require(sessions.first { $0.name == "alpha" })
    #expect(
      try database.deliveredRequests(
        of: alpha, to: sender.endpoint(for: .traces), signal: "traces"
      ).isEmpty)
    let states = try database.deliveryStates(of: sessions)
    #expect(states[alpha.id]?.first?.outcome == .failed)
    #expect(states[alpha.id]?.first?.lastError?.contains("HTTP 400: bad span") == true)
  }

  @Test("--resend sends everything again, and the ledger holds each request once")
  func resendSendsAgain() async throws {
    let fixture = try FixtureDatabase.standard()
    _ = try await OTLPPusher(databasePath: fixture.path, sender: ScriptedSender(), options: small)
      .push(matching: allSessions())
    var options = small
    options.resend = true
    let again = ScriptedSender()
    let report = try await OTLPPusher(databasePath: fixture.path, sender: again, options: options)
      .push(matching: allSessions())
    #expect(try spanIDs(again.sent.map(\.body)) == (try Self.fileSpans(fixture)))
    #expect(report.deliveries.map(\.skipped) == [0, 0])
    let database = try QueryDatabase(path: fixture.path)
    let sessions = try database.sessions(matching: allSessions())
    let states = try database.deliveryStates(of: sessions)
    #expect(
      sessions.compactMap { states[$0.id]?.first?.requests }
        == report.deliveries.map { Int64($0.sent) })
  }

  @Test("a session whose rows changed after part of it was delivered is reported, not resent")
  func changedSessionIsReported() async throws {
    let fixture = try FixtureDatabase()
    // Unterminated (its heartbeat is stale): final as far as the file can tell, so its last
    // request is sent; rows added after that (a merge, another binary) change that request.
    try fixture.session(1, name: "crashed", status: "running")
    try fixture.handler(session: 1, number: 1, name: "validate", control: "pay")
    try fixture.outcomes(session: 1, handler: 1, durations: [1, 2, 3])
    var filter = QueryFilter()
    filter.session = .id(1)
    _ = try await OTLPPusher(databasePath: fixture.path, sender: ScriptedSender(), options: small)
      .push(matching: filter)
    try fixture.outcomes(session: 1, handler: 1, durations: [4])
    let again = ScriptedSender()
    let report = try await OTLPPusher(databasePath: fixture.path, sender: again, options: small)
      .push(matching: filter)
    // Three fires of two spans: the first request (two fires) was cut by its size and is the
    // same again; the second, the session's tail then, now holds the added fire too.
    #expect(again.sent.isEmpty)
    #expect(report.changed?.outcome == .changed(sequence: 2))
    #expect(report.changed?.skipped == 1)
  }

  @Test("a session still recording sends only full requests; the rest goes once it has ended")
  func runningSessionWaitsForItsEnd() async throws {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "live", status: "running")
    // Running: a fresh heartbeat from this (live) process on this host.
    try fixture.connection.execute(
      """
      UPDATE sessions SET host = '\(SessionLiveness.localHostName())',
        pid = \(ProcessInfo.processInfo.processIdentifier),
        heartbeat_unix_ns = \(WallClock.unixNanoseconds()) WHERE id = 1
      """)
    try fixture.handler(session: 1, number: 1, name: "validate", control: "pay")
    try fixture.outcomes(session: 1, handler: 1, durations: [1, 2, 3])
    var filter = QueryFilter()
    filter.session = .id(1)
    let options = OTLPPushOptions(signals: [.traces, .metrics], spansPerRequest: 4)
    let first = ScriptedSender()
    let report = try await OTLPPusher(
      databasePath: fixture.path, sender: first, options: options
    ).push(matching: filter)
    // Two fires (four spans) fill the first request; the third fire is the tail.
    #expect(first.sent.map(\.signal) == [.traces])
    #expect(report.deliveries.map(\.outcome) == [.waiting, .waiting])
    try fixture.outcomes(session: 1, handler: 1, durations: [4])
    try fixture.connection.execute(
      "UPDATE sessions SET status = 'ended', ended_unix_ns = heartbeat_unix_ns WHERE id = 1")
    try fixture.summarizeEnded()
    let second = ScriptedSender()
    let after = try await OTLPPusher(
      databasePath: fixture.path, sender: second, options: options
    ).push(matching: filter)
    #expect(second.sent.map(\.signal) == [.traces, .metrics])
    #expect(after.deliveries.map(\.outcome) == [.delivered, .delivered])
    #expect(after.deliveries.first?.skipped == 1)
    let all = try spanIDs((first.sent + second.sent).filter { $0.signal == .traces }.map(\.body))
    #expect(all.count == 8)
    #expect(Set(all).count == 8)
  }

  @Test("partial successes are counted per session and recorded with their requests")
  func partialSuccessIsCounted() async throws {
    let fixture = try FixtureDatabase.standard()
    let sender = ScriptedSender(rejectedPerRequest: 1)
    let report = try await OTLPPusher(databasePath: fixture.path, sender: sender, options: small)
      .push(matching: allSessions())
    #expect(report.deliveries.map(\.rejected) == report.deliveries.map { Int64($0.sent) })
    let database = try QueryDatabase(path: fixture.path)
    let states = try database.deliveryStates(of: try database.sessions(matching: allSessions()))
    #expect(states.values.flatMap { $0 }.map(\.rejected).reduce(0, +) == Int64(sender.sent.count))
  }

  @Test("a pruned session's traces are refused before anything is sent")
  func prunedSessionIsRefusedFirst() async throws {
    let fixture = try FixtureDatabase.standard()
    let plan = try RawRowPruner.plan(
      sessions: [1], policy: .keepLast(0), connection: fixture.connection)
    _ = try RawRowPruner.execute(plan, connection: fixture.connection, reclaimSpace: false)
    let sender = ScriptedSender()
    await #expect(throws: QueryError.self) {
      _ = try await OTLPPusher(databasePath: fixture.path, sender: sender, options: small)
        .push(matching: allSessions())
    }
    #expect(sender.sent.isEmpty)
  }

  @Test("a push from a file that does not exist throws and creates nothing")
  func missingFileIsNotCreated() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("missing.sqlite")
    let sender = ScriptedSender()
    await #expect(throws: QueryError.self) {
      _ = try await OTLPPusher(databasePath: path, sender: sender).push(matching: allSessions())
    }
    #expect(!FileManager.default.fileExists(atPath: path))
    #expect(sender.sent.isEmpty)
  }

  @Test("metrics go as one request per session with summaries, and are not sent twice")
  func metricsOncePerSession() async throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.summarizeEnded()
    let options = OTLPPushOptions(signals: [.metrics])
    let sender = ScriptedSender()
    let report = try await OTLPPusher(databasePath: fixture.path, sender: sender, options: options)
      .push(matching: allSessions())
    #expect(sender.sent.map(\.signal) == [.metrics, .metrics])
    #expect(sender.sent.allSatisfy { $0.body.hasPrefix(#"{"resourceMetrics":"#) })
    #expect(report.deliveries.allSatisfy { $0.items > 0 })
    let again = ScriptedSender()
    _ = try await OTLPPusher(databasePath: fixture.path, sender: again, options: options)
      .push(matching: allSessions())
    #expect(again.sent.isEmpty)
  }
}
