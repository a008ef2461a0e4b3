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
/// on. A kill loses at most the one request in flight, sent again by the next push. The
/// retry budget is the whole push's (`RetryTime`): once it is spent, a failing request of a
/// later session is tried once and not retried.
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
  /// - Throws: `QueryError.databaseNotFound` for a missing file (none is created);
  ///   `StoreError`/`SQLiteError` when the ledger cannot be written (before anything
  ///   is sent); `QueryError` when the file cannot be read (a session whose raw rows were
  ///   pruned, for traces: before anything is sent). Delivery failures do not throw: they are
  ///   in the report.
  public func push(matching filter: QueryFilter) async throws -> OTLPPushReport {
    // A push records into a database that exists; it never creates one at a mistyped path.
    guard try DatabaseFile.inspect(databasePath) != .missing else {
      throw QueryError.databaseNotFound(path: databasePath)
    }
    let ledger = DeliveryLedger(connection: try SleeveDatabase.openForWriting(path: databasePath))
    var endpoints: [OTLPSignal: String] = [:]
    for signal in OTLPSignal.allCases { endpoints[signal] = sender.endpoint(for: signal) }
    let inFlight = max(options.concurrentRequests, 1)
    // Requests in flight plus one being read: what memory holds at most.
    let pipe = PushPipe(capacity: inFlight + 1)
    RequestProducer(
      path: databasePath, filter: filter, options: options, endpoints: endpoints, pipe: pipe
    ).start()
    var run = PushRun(ledger: ledger, pipe: pipe)
    let sender = self.sender
    // One retry budget for the whole push, whatever the number of sessions and signals.
    let retries = RetryTime()
    await withTaskGroup(of: Sent.self) { group in
      var sending = 0
      for await item in pipe.stream {
        switch item {
        case .begin(let delivery):
          run.begin(delivery, resend: options.resend)
        case .request(let index, let sequence, let body):
          if sending == inFlight, let sent = await group.next() {
            sending -= 1
            run.finish(sent)
          }
          // Asked after the wait: the answer it waited for may have stopped this signal.
          guard run.wants(index) else {
            pipe.release()
            continue
          }
          let signal = run.report.deliveries[index].signal
          group.addTask {
            let result = await sender.send(
              Array(body.json.utf8), signal: signal, retries: retries)
            return Sent(index: index, sequence: sequence, body: body, result: result)
          }
          sending += 1
        case .end(let index, let skipped, let changed, let heldBack):
          // A signal's state is written once each of its requests has an answer.
          while sending > 0, let sent = await group.next() {
            sending -= 1
            run.finish(sent)
          }
          run.end(index, skipped: skipped, changed: changed, heldBack: heldBack)
        case .failure(let error):
          run.fail(error)
        }
      }
      while let sent = await group.next() { run.finish(sent) }
    }
    return try run.result()
  }

  /// A request's answer, as the task that sent it hands it back.
  private struct Sent: Sendable {
    let index: Int
    let sequence: Int64
    let body: OTLPRequestBody
    let result: Result<OTLPAccepted, OTLPPushError>
  }

  /// What a push knows as it goes: the report, what ended, and whether it stopped. Every
  /// ledger write goes through it, on the task that runs the push.
  private struct PushRun {
    let ledger: DeliveryLedger
    let pipe: PushPipe
    var report = OTLPPushReport()
    var ended = Set<Int>()
    var halted = false
    var failure: (any Error)?

    init(ledger: DeliveryLedger, pipe: PushPipe) {
      self.ledger = ledger
      self.pipe = pipe
    }

    /// Whether a request of delivery `index` is still to be sent.
    func wants(_ index: Int) -> Bool {
      !halted && failure == nil && report.deliveries[index].outcome == .delivered
    }

    mutating func begin(_ delivery: OTLPPushReport.Delivery, resend: Bool) {
      report.deliveries.append(delivery)
      guard resend, !halted else { return }
      writing {
        try $0.forget(
          session: delivery.sessionID, endpoint: delivery.endpoint,
          signal: delivery.signal.rawValue)
      }
    }

    mutating func finish(_ sent: Sent) {
      defer { pipe.release() }
      let delivery = report.deliveries[sent.index]
      switch sent.result {
      case .success(let accepted):
        let rejected = max(accepted.rejected, 0)
        writing {
          try $0.record(
            DeliveryLedger.Request(
              sessionID: delivery.sessionID, endpoint: delivery.endpoint,
              signal: delivery.signal.rawValue, sequence: sent.sequence, fires: sent.body.fires,
              items: Int64(sent.body.items), rejected: rejected,
              digest: OTLPBodyDigest.of(sent.body)))
        }
        report.deliveries[sent.index].sent += 1
        report.deliveries[sent.index].items += sent.body.items
        report.deliveries[sent.index].rejected += rejected
        if let message = accepted.message {
          report.deliveries[sent.index].rejectionMessage = message
        }
      case .failure(let error):
        // The first failure of a signal is the one reported.
        guard report.deliveries[sent.index].outcome == .delivered else { return }
        report.deliveries[sent.index].outcome = .failed(error)
        writing { try $0.setState(Self.state(of: delivery, .failed, error: error.description)) }
        if error.kind == .unreachable { stop() }
      }
    }

    mutating func end(_ index: Int, skipped: Int, changed: Int64?, heldBack: Bool) {
      ended.insert(index)
      report.deliveries[index].skipped = skipped
      let delivery = report.deliveries[index]
      guard delivery.outcome == .delivered else { return }
      if halted || failure != nil {
        report.deliveries[index].outcome = .stopped
      } else if let changed {
        report.deliveries[index].outcome = .changed(sequence: changed)
        writing { try $0.setState(Self.state(of: delivery, .partial, error: nil)) }
      } else if heldBack {
        report.deliveries[index].outcome = .waiting
        writing { try $0.setState(Self.state(of: delivery, .partial, error: nil)) }
      } else {
        writing { try $0.setState(Self.state(of: delivery, .delivered, error: nil)) }
      }
    }

    mutating func fail(_ error: any Error) {
      failure = failure ?? error
      stop()
    }

    /// The report, once the stream ended; deliveries that never ended were stopped.
    func result() throws -> OTLPPushReport {
      if let failure { throw failure }
      var report = report
      for index in report.deliveries.indices where !ended.contains(index) {
        if report.deliveries[index].outcome == .delivered {
          report.deliveries[index].outcome = .stopped
        }
      }
      return report
    }

    private mutating func stop() {
      halted = true
      pipe.stop()
    }

    /// Writes to the ledger; a write that fails stops the push, so nothing is sent that is
    /// not recorded.
    private mutating func writing(_ body: (DeliveryLedger) throws -> Void) {
      do {
        try body(ledger)
      } catch {
        fail(error)
      }
    }

    private static func state(
      of delivery: OTLPPushReport.Delivery, _ outcome: DeliveryLedger.State.Outcome,
      error: String?
    ) -> DeliveryLedger.State {
      DeliveryLedger.State(
        sessionID: delivery.sessionID, endpoint: delivery.endpoint,
        signal: delivery.signal.rawValue, outcome: outcome, sessionEnded: delivery.sessionEnded,
        lastError: error)
    }
  }
}
