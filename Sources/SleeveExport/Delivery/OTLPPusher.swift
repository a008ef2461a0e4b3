import SleeveQuery
import SleeveStore

/// Pushes recorded sessions to an OTLP/HTTP endpoint, resumably and idempotently: every
/// request the receiver accepts is recorded in the database (`DeliveryLedger`) before the
/// next one goes, so a push that was interrupted resumes where it stopped and a second push
/// sends nothing new.
///
/// ```swift
/// let sender = try OTLPHTTPSender(configuration: configuration)
/// let report = try await OTLPPusher(databasePath: "sleeve.sqlite", sender: sender)
///   .push(matching: filter)
/// ```
///
/// Reading and encoding run on a thread of their own while a request is on the wire, with
/// at most two requests waiting (memory stays flat for any session size). An endpoint that
/// stays unreachable after the sender's retries stops the push (the sessions after it are
/// not tried); a request the receiver refuses fails its session's signal, and the others go
/// on. A kill loses at most the one request in flight, sent again by the next push.
public struct OTLPPusher: Sendable {
  /// The database pushed from (its ledger is written: a file before `0008_deliveries` is
  /// migrated, as every writer does).
  public let databasePath: String
  /// What sends each request.
  public let sender: any OTLPRequestSending
  /// What is sent and how requests are cut.
  public let options: OTLPPushOptions

  /// A pusher of `databasePath`'s sessions through `sender`.
  public init(
    databasePath: String, sender: any OTLPRequestSending, options: OTLPPushOptions = .init()
  ) {
    self.databasePath = databasePath
    self.sender = sender
    self.options = options
  }

  /// Pushes the sessions `filter` selects (traces, then metrics, session by session).
  ///
  /// - Throws: `StoreError`/`SQLiteError` when the ledger cannot be written (before anything
  ///   is sent); `QueryError` when the file cannot be read (a session whose raw rows were
  ///   pruned, for traces: before anything is sent). Delivery failures do not throw: they are
  ///   in the report.
  public func push(matching filter: QueryFilter) async throws -> OTLPPushReport {
    let ledger = DeliveryLedger(connection: try SleeveDatabase.openForWriting(path: databasePath))
    var endpoints: [OTLPSignal: String] = [:]
    for signal in OTLPSignal.allCases { endpoints[signal] = sender.endpoint(for: signal) }
    let pipe = PushPipe(capacity: 2)
    RequestProducer(
      path: databasePath, filter: filter, options: options, endpoints: endpoints, pipe: pipe
    ).start()
    var report = OTLPPushReport()
    var ended = Set<Int>()
    var halted = false
    var failure: (any Error)?
    for await item in pipe.stream {
      do {
        switch item {
        case .begin(let delivery):
          report.deliveries.append(delivery)
          if options.resend, !halted {
            try ledger.forget(
              session: delivery.sessionID, endpoint: delivery.endpoint,
              signal: delivery.signal.rawValue)
          }
        case .request(let index, let sequence, let body):
          defer { pipe.release() }
          guard !halted, failure == nil, report.deliveries[index].outcome == .delivered else {
            continue
          }
          let delivery = report.deliveries[index]
          switch await sender.send(Array(body.json.utf8), signal: delivery.signal) {
          case .success(let accepted):
            try ledger.record(
              DeliveryLedger.Request(
                sessionID: delivery.sessionID, endpoint: delivery.endpoint,
                signal: delivery.signal.rawValue, sequence: sequence, fires: body.fires,
                items: Int64(body.items), rejected: max(accepted.rejected, 0),
                digest: OTLPBodyDigest.of(body)))
            report.deliveries[index].sent += 1
            report.deliveries[index].items += body.items
            report.deliveries[index].rejected += max(accepted.rejected, 0)
            if let message = accepted.message {
              report.deliveries[index].rejectionMessage = message
            }
          case .failure(let error):
            report.deliveries[index].outcome = .failed(error)
            try ledger.setState(state(of: delivery, .failed, error: error.description))
            if error.kind == .unreachable {
              halted = true
              pipe.stop()
            }
          }
        case .end(let index, let skipped, let changed, let heldBack):
          ended.insert(index)
          report.deliveries[index].skipped = skipped
          let delivery = report.deliveries[index]
          guard delivery.outcome == .delivered else { continue }
          if halted || failure != nil {
            report.deliveries[index].outcome = .stopped
          } else if let changed {
            report.deliveries[index].outcome = .changed(sequence: changed)
            try ledger.setState(state(of: delivery, .partial, error: nil))
          } else if heldBack {
            report.deliveries[index].outcome = .waiting
            try ledger.setState(state(of: delivery, .partial, error: nil))
          } else {
            try ledger.setState(state(of: delivery, .delivered, error: nil))
          }
        case .failure(let error):
          failure = error
        }
      } catch {
        // The ledger could not be written: stop, so nothing is sent that is not recorded.
        failure = failure ?? error
        halted = true
        pipe.stop()
      }
    }
    if let failure { throw failure }
    for index in report.deliveries.indices where !ended.contains(index) {
      if report.deliveries[index].outcome == .delivered {
        report.deliveries[index].outcome = .stopped
      }
    }
    return report
  }

  private func state(
    of delivery: OTLPPushReport.Delivery, _ outcome: DeliveryLedger.State.Outcome,
    error: String?
  ) -> DeliveryLedger.State {
    DeliveryLedger.State(
      sessionID: delivery.sessionID, endpoint: delivery.endpoint,
      signal: delivery.signal.rawValue, outcome: outcome, sessionEnded: delivery.sessionEnded,
      lastError: error)
  }
}
