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
  /// The failed outcomes by kind, each with one of its messages. Bounded: at most
  /// ``maximumFailureKinds`` kinds; failures of any further kind are counted under
  /// ``FailureKind/overflow``.
  public var failures: [FailureKind: FailureSample] = [:]

  /// The most failure kinds one summary keeps (the overflow kind included).
  public static let maximumFailureKinds = 64

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

  /// Counts one failure of `kind` whose message was `message`: the first message of a kind is
  /// kept as its sample (capped at ``FailureKind/maximumPatternScalars`` scalars).
  public mutating func addFailure(_ kind: FailureKind, message: String?) {
    addFailures(of: kind, FailureSample(count: 1, message: message))
  }

  /// Counts `sample.count` failures of `kind`, into the overflow kind once
  /// ``maximumFailureKinds`` − 1 other kinds are kept.
  mutating func addFailures(of kind: FailureKind, _ sample: FailureSample) {
    var kind = kind
    if failures[kind] == nil && failures.count >= Self.maximumFailureKinds - 1
      && kind != .overflow
    {
      kind = .overflow
    }
    if let known = failures[kind] {
      failures[kind] = FailureSample(count: known.count + sample.count, message: known.message)
    } else {
      failures[kind] = FailureSample(count: sample.count, message: sample.message)
    }
  }

  /// This summary and `other` as one: counts added, histograms merged exactly, failures
  /// united (this summary's samples kept). `nil` when their histograms were built with
  /// different limits.
  public func merged(with other: OutcomeSummary) -> OutcomeSummary? {
    guard let durations = durations.merged(with: other.durations) else { return nil }
    var result = self
    for index in statusCounts.indices { result.statusCounts[index] += other.statusCounts[index] }
    result.unknownStatus += other.unknownStatus
    result.durations = durations
    for (kind, sample) in other.failures.sorted(by: { $0.key < $1.key }) {
      result.addFailures(of: kind, sample)
    }
    return result
  }

  /// ok + failed.
  public var ran: UInt64 {
    statusCounts[Int(RecordCodes.Status.ok.rawValue)]
      + statusCounts[Int(RecordCodes.Status.failed.rawValue)]
  }
}

/// How often one kind of failure happened, with one of its messages.
public struct FailureSample: Equatable, Sendable {
  /// The failures of the kind.
  public let count: UInt64
  /// One message as recorded, at most ``FailureKind/maximumPatternScalars`` scalars; `nil`
  /// when none was recorded.
  public let message: String?

  /// A sample of `count` failures whose message was `message` (capped here).
  public init(count: UInt64, message: String?) {
    self.count = count
    self.message = message.map {
      String(String.UnicodeScalarView($0.unicodeScalars.prefix(FailureKind.maximumPatternScalars)))
    }
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
      SELECT registration_id, variant, status, duration_ns, id, error_type, error_message
      FROM outcomes WHERE id BETWEEN ? AND ?
      """)
    try statement.bind(ids.lowerBound, at: 1)
    try statement.bind(ids.upperBound, at: 2)
    var summaries: [OutcomeSummary.Key: OutcomeSummary] = [:]
    while try statement.step() {
      let variant: Int8 =
        statement.isNull(at: 1) ? -1 : Int8(clamping: statement.int64(at: 1))
      let key = OutcomeSummary.Key(registration: statement.int64(at: 0), variant: variant)
      let status = statement.int64(at: 2)
      if status == RecordCodes.Status.failed.rawValue {
        let message = statement.text(at: 6)
        summaries[key, default: OutcomeSummary()].addFailure(
          FailureKind(type: statement.text(at: 5), message: message), message: message)
      }
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
