import SleeveStore

/// The recorded sessions as one answer, read in one snapshot: each selected session with
/// whether its raw rows were pruned and where its deliveries stand, and the file's rows that
/// belong to no session.
public struct SessionListing: Sendable {
  /// One session and what the listing knows about it beside its summary.
  public struct Row: Sendable {
    /// The session.
    public let session: SessionSummary
    /// Whether `sleeve prune` removed its raw rows (its fires and outcomes are its
    /// summary's counts).
    public let rawPruned: Bool
    /// One state per endpoint and signal it was pushed to (empty when never pushed).
    public let deliveries: [DeliveryLedger.State]
  }

  /// The selected sessions, oldest first.
  public let rows: [Row]
  /// Whether any session was ever pushed (then every row shows where its deliveries stand).
  public let anyDelivered: Bool
  /// The rows of the file that belong to no session (every answer leaves them out).
  public let unowned: UnownedRows
}

extension QueryDatabase {
  /// The sessions `filter` selects, with their pruned state and deliveries, and the file's
  /// unowned rows, all read in one snapshot.
  ///
  /// - Throws: ``QueryError/sessionNotFound(_:)`` when no session matches.
  public func sessionListing(matching filter: QueryFilter) throws -> SessionListing {
    try translating {
      let sessions = try sessions(matching: filter)
      let pruned = Set(try rawPrunedSessions(among: sessions))
      let deliveries = try deliveryStates(of: sessions)
      return SessionListing(
        rows: sessions.map { session in
          SessionListing.Row(
            session: session, rawPruned: pruned.contains(session.id),
            deliveries: deliveries[session.id] ?? [])
        }, anyDelivered: !deliveries.isEmpty, unowned: try unownedRows())
    }
  }
}
