import SleeveStore

extension QueryDatabase {
  /// The requests of `session`'s `signal` that `endpoint` accepted, by sequence (a file
  /// before `0008_deliveries` has none).
  public func deliveredRequests(
    of session: SessionSummary, to endpoint: String, signal: String
  ) throws -> [Int64: DeliveryLedger.Request] {
    try translating {
      try DeliveryLedger(connection: connection).delivered(
        session: session.id, endpoint: endpoint, signal: signal)
    }
  }

  /// Where each of `sessions` stands in its deliveries, by session id: one state per endpoint
  /// and signal pushed, with the accepted requests' totals.
  public func deliveryStates(of sessions: [SessionSummary]) throws -> [Int64: [DeliveryLedger
    .State]]
  {
    try translating { try DeliveryLedger(connection: connection).states(of: sessions.map(\.id)) }
  }
}
