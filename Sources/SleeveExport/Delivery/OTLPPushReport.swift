/// What a push did, session by session and signal by signal.
public struct OTLPPushReport: Sendable {
  /// One session's signal.
  public struct Delivery: Sendable, Equatable {
    /// How it ended.
    public enum Outcome: Sendable, Equatable {
      /// Every request is now delivered (some may have been before: `skipped`).
      case delivered
      /// Not sent: the receiver refused a request, or it stayed unreachable (the error says
      /// which); the requests accepted before it stay recorded.
      case failed(OTLPPushError)
      /// Not sent: the request at `sequence` differs from the one the endpoint accepted
      /// before (the session was still recording then); `--resend` sends it all again.
      case changed(sequence: Int64)
      /// Not sent: the push stopped before it got there (an endpoint stayed unreachable).
      case stopped
      /// Sent as far as it can be: the session is still recording, so its last request (cut
      /// by the end of what was there) and its metrics wait until it ends.
      case waiting
    }

    /// The session's database id.
    public let sessionID: Int64
    /// The session's name.
    public let sessionName: String
    /// The signal.
    public let signal: OTLPSignal
    /// The URL, without credentials.
    public let endpoint: String
    /// Whether the session had ended when it was read (its rows can no longer change).
    public let sessionEnded: Bool
    /// Requests sent and accepted in this push.
    public var sent = 0
    /// Requests the endpoint had accepted before (not sent again).
    public var skipped = 0
    /// Spans or data points in the requests sent.
    public var items = 0
    /// Of them, refused by the receiver in partial successes.
    public var rejected: Int64 = 0
    /// The receiver's last partial-success message, if any.
    public var rejectionMessage: String?
    /// How it ended.
    public var outcome: Outcome = .delivered

    /// A session's signal before anything was sent.
    public init(
      sessionID: Int64, sessionName: String, signal: OTLPSignal, endpoint: String,
      sessionEnded: Bool
    ) {
      self.sessionEnded = sessionEnded
      self.sessionID = sessionID
      self.sessionName = sessionName
      self.signal = signal
      self.endpoint = endpoint
    }
  }

  /// Whether every selected session's signals are delivered (or waiting for their session
  /// to end).
  public var isComplete: Bool {
    deliveries.allSatisfy { $0.outcome == .delivered || $0.outcome == .waiting }
  }

  /// Every session's signals, in the order sessions were selected (traces before metrics).
  public var deliveries: [Delivery] = []

  /// Whether an endpoint stayed unreachable (the push stopped there).
  public var unreachable: OTLPPushError? {
    for delivery in deliveries {
      if case .failed(let error) = delivery.outcome, error.kind == .unreachable { return error }
    }
    return nil
  }

  /// The first request a receiver refused.
  public var refused: OTLPPushError? {
    for delivery in deliveries {
      if case .failed(let error) = delivery.outcome, error.kind != .unreachable { return error }
    }
    return nil
  }

  /// The first session that changed after part of it was delivered.
  public var changed: Delivery? {
    deliveries.first { if case .changed = $0.outcome { true } else { false } }
  }
}
