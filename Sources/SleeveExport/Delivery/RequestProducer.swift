import Foundation
import SleeveQuery

/// Reads the selected sessions from one snapshot of the file and cuts them into requests, on
/// a thread of its own, handing over only what the endpoint has not accepted before.
///
/// A request is known by its place in its session's stream (requests are cut where only what
/// came before decides) and the digest of its body: one the ledger holds with the same digest
/// and item count is skipped; one that differs (the session was still recording when it was
/// delivered) ends that session's signal as `changed`, so nothing is ever sent twice without
/// `--resend`. A session still recording sends only requests that are already full: its last
/// one, and its metrics, wait until it ends.
struct RequestProducer: Sendable {
  let path: String
  let filter: QueryFilter
  let options: OTLPPushOptions
  let endpoints: [OTLPSignal: String]
  let pipe: PushPipe

  /// Starts producing on a new thread; the pipe's stream ends when it is done.
  func start() {
    let thread = Thread { [self] in
      produce()
      pipe.finish()
    }
    thread.name = "sleeve.export.producer"
    thread.start()
  }

  private struct SessionChanged: Error {}

  private func produce() {
    do {
      let database = try QueryDatabase(path: path)
      try database.snapshot {
        let sessions = try database.sessions(matching: filter)
        if options.signals.contains(.traces) {
          try database.requireRawRows(of: sessions, for: "sleeve export --endpoint (traces)")
        }
        var index = 0
        for session in sessions {
          for signal in OTLPSignal.allCases where options.signals.contains(signal) {
            try produce(signal, of: session, index: index, from: database)
            index += 1
          }
        }
      }
    } catch is PushStopped {
    } catch {
      pipe.send(.failure(error))
    }
  }

  private func produce(
    _ signal: OTLPSignal, of session: SessionSummary, index: Int, from database: QueryDatabase
  ) throws {
    let endpoint = endpoints[signal] ?? ""
    pipe.send(
      .begin(
        OTLPPushReport.Delivery(
          sessionID: session.id, sessionName: session.name, signal: signal, endpoint: endpoint,
          sessionEnded: session.liveness == .ended)))
    if !options.resend,
      let state = try database.deliveryStates(of: [session])[session.id]?.first(where: {
        $0.endpoint == endpoint && $0.signal == signal.rawValue
      }), state.outcome == .delivered, state.sessionEnded
    {
      // Delivered whole after it ended: final, not read again.
      pipe.send(
        .end(index: index, skipped: Int(clamping: state.requests), changed: nil, heldBack: false))
      return
    }
    let delivered =
      options.resend
      ? [:]
      : try database.deliveredRequests(of: session, to: endpoint, signal: signal.rawValue)
    var sequence: Int64 = 0
    var skipped = 0
    var changed: Int64?
    var heldBack = false
    // A session still recording keeps growing: its last request (cut by the end of what is
    // there, not by its size) and its metrics wait until it ends, so what is sent never
    // changes after it is delivered.
    let running = session.liveness == .running
    var last = false
    let pipe = self.pipe
    let hand: (OTLPRequestBody) throws -> Void = { body in
      if last, running {
        heldBack = true
        return
      }
      sequence += 1
      if let before = delivered[sequence] {
        guard before.digest == OTLPBodyDigest.of(body), before.items == Int64(body.items)
        else {
          changed = sequence
          throw SessionChanged()
        }
        skipped += 1
        return
      }
      try pipe.put(.request(index: index, sequence: sequence, body: body))
    }
    do {
      switch signal {
      case .traces:
        let encoder = OTLPTraceEncoder(
          spansPerRequest: options.spansPerRequest, bytesPerRequest: options.bytesPerRequest,
          emit: hand)
        try encoder.begin(session)
        try database.forEachFireGroup(in: session) { try encoder.add($0) }
        last = true
        try encoder.flush()
      case .metrics:
        last = true
        let summaries = running ? [] : try database.handlerSummaries(of: session)
        heldBack = running
        if !summaries.isEmpty {
          try hand(OTLPMetricsEncoder.request(session, summaries: summaries))
        }
      }
    } catch is SessionChanged {}
    pipe.send(.end(index: index, skipped: skipped, changed: changed, heldBack: heldBack))
  }
}
