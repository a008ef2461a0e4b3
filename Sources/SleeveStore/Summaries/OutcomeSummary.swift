/// What one handler did in one session, for one variant: its outcomes counted by status, and
/// the durations of the ones that ran (ok and failed) as an ``ExponentialHistogram``. Enough to
/// answer error rates and latency percentiles (within the histogram's bound) without the raw
/// outcome rows.
public struct OutcomeSummary: Equatable, Sendable {
  /// Which rows it summarizes: one registration (row id) and one variant.
  public struct Key: Hashable, Sendable, Comparable {
    /// The registration's row id.
    public let registration: Int64
    /// The stored variant code (`RecordCodes.Variant`), or -1 for a handler no flag gates.
    public let variant: Int8

    /// The key of `registration`'s outcomes at `variant`.
    public init(registration: Int64, variant: Int8) {
      self.registration = registration
      self.variant = variant
    }

    /// By registration, then variant.
    public static func < (lhs: Key, rhs: Key) -> Bool {
      (lhs.registration, lhs.variant) < (rhs.registration, rhs.variant)
    }
  }

  /// Outcomes by stored status code (`RecordCodes.Status`, 0…5); a status outside that range
  /// (a damaged row) is counted in ``unknownStatus``.
  public var statusCounts = [UInt64](repeating: 0, count: 6)
  /// Outcomes whose status is not one this binary knows.
  public var unknownStatus: UInt64 = 0
  /// The durations of the ok and failed outcomes.
  public var durations = ExponentialHistogram()

  /// An empty summary.
  public init() {}

  /// Counts one outcome of `status` that took `duration` nanoseconds.
  public mutating func add(status: Int64, duration: Int64) {
    guard (0..<Int64(statusCounts.count)).contains(status) else {
      unknownStatus += 1
      return
    }
    statusCounts[Int(status)] += 1
    if status == RecordCodes.Status.ok.rawValue || status == RecordCodes.Status.failed.rawValue {
      durations.add(duration)
    }
  }

  /// This summary and `other` as one: counts added, histograms merged exactly. `nil` when
  /// their histograms were built with different limits.
  public func merged(with other: OutcomeSummary) -> OutcomeSummary? {
    guard let durations = durations.merged(with: other.durations) else { return nil }
    var result = self
    for index in statusCounts.indices { result.statusCounts[index] += other.statusCounts[index] }
    result.unknownStatus += other.unknownStatus
    result.durations = durations
    return result
  }

  /// ok + failed.
  public var ran: UInt64 {
    statusCounts[Int(RecordCodes.Status.ok.rawValue)]
      + statusCounts[Int(RecordCodes.Status.failed.rawValue)]
  }
}

/// Builds a session's summaries from its raw outcome rows in one range scan of the primary key.
public enum OutcomeSummaries {
  /// The summaries of session `session`'s outcomes, by (registration, variant).
  ///
  /// - Throws: `StoreError.corrupt` naming the row when a duration of an ok or failed outcome is
  ///   not an integer (it would read as 0 and move every percentile); `SQLiteError` when the
  ///   read fails.
  public static func build(session: Int64, connection: Connection) throws
    -> [OutcomeSummary.Key: OutcomeSummary]
  {
    guard let ids = RowID.range(of: session) else { return [:] }
    let statement = try connection.prepare(
      """
      SELECT registration_id, variant, status, duration_ns, id FROM outcomes
      WHERE id BETWEEN ? AND ?
      """)
    try statement.bind(ids.lowerBound, at: 1)
    try statement.bind(ids.upperBound, at: 2)
    var summaries: [OutcomeSummary.Key: OutcomeSummary] = [:]
    while try statement.step() {
      let variant: Int8 =
        statement.isNull(at: 1) ? -1 : Int8(clamping: statement.int64(at: 1))
      let key = OutcomeSummary.Key(registration: statement.int64(at: 0), variant: variant)
      let status = statement.int64(at: 2)
      let ran =
        status == RecordCodes.Status.ok.rawValue || status == RecordCodes.Status.failed.rawValue
      guard case .integer(let duration) = statement.value(at: 3) else {
        guard !ran else {
          throw StoreError.corrupt(
            path: connection.path,
            detail:
              "outcomes row \(statement.int64(at: 4)) has a duration_ns that is not an integer")
        }
        summaries[key, default: OutcomeSummary()].add(status: status, duration: 0)
        continue
      }
      summaries[key, default: OutcomeSummary()].add(status: status, duration: duration)
    }
    return summaries
  }
}
