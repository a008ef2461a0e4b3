/// The push settings given on Sleeve's command line, as the CLI parsed them; each one set
/// replaces every `OTEL_EXPORTER_OTLP_*` variable for the same setting.
///
/// Headers have no flag on purpose: they carry secrets, and a command line is visible to
/// every user of the machine (`ps`).
public struct OTLPPushFlags: Sendable, Equatable {
  /// `--endpoint URL`: a base endpoint, each signal's path appended.
  public var endpoint: String?
  /// `--timeout`: the deadline of each request attempt.
  public var timeout: Duration?
  /// `--compression`.
  public var compression: OTLPCompression?
  /// `--retry-budget`: how long retries may go on (`.zero`: none).
  public var retryBudget: Duration?

  /// Flags as given; `nil` for each one not on the command line.
  public init(
    endpoint: String? = nil, timeout: Duration? = nil, compression: OTLPCompression? = nil,
    retryBudget: Duration? = nil
  ) {
    self.endpoint = endpoint
    self.timeout = timeout
    self.compression = compression
    self.retryBudget = retryBudget
  }
}
