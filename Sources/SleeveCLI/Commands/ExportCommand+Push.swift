import SleeveExport
import SleeveQuery

/// `sleeve export --endpoint URL` (or `--push`): sessions pushed over OTLP/HTTP.
extension ExportCommand {
  /// `--endpoint <url>`.
  static let endpoint = Option<String>(
    "endpoint", value: "url",
    help: "Push to this OTLP/HTTP collector (a base URL) instead of writing.")
  /// `--push`.
  static let pushFlag = Flag(
    "push", help: "Push to the collector OTEL_EXPORTER_OTLP_ENDPOINT names.")
  /// `--timeout <duration>`: more than 0.
  static let timeout = Option(
    "timeout", value: "duration",
    help: "Each attempt's deadline (default: OTEL_EXPORTER_OTLP_TIMEOUT, else 10s)."
  ) { text throws(ValueError) in
    let nanoseconds = try ValueParsers.duration(text)
    guard nanoseconds > 0 else { throw ValueError("the deadline must be more than 0") }
    return Duration.nanoseconds(nanoseconds)
  }
  /// `--compression gzip|none`.
  static let compression = Option(
    "compression", value: "mode",
    help: "gzip or none (default: OTEL_EXPORTER_OTLP_COMPRESSION, else none)."
  ) { text throws(ValueError) in try ValueParsers.choice(text, of: OTLPCompression.self) }
  /// `--retry-budget <time>`.
  static let retryBudget = Option(
    "retry-budget", value: "time",
    help: "How long a failed request is retried (default 60s; 0s: never)."
  ) { text throws(ValueError) in Duration.nanoseconds(try ValueParsers.duration(text)) }
  /// `--resend`.
  static let resend = Flag("resend", help: "Send again what the endpoint already accepted.")

  /// The options of a push.
  static let pushOptions = [
    endpoint.spec, pushFlag.spec, timeout.spec, compression.spec, retryBudget.spec, resend.spec,
  ]

  /// The options only a push takes (besides `--endpoint` and `--push`, which ask for one).
  static let pushOnlyOptions = [timeout.spec, compression.spec, retryBudget.spec, resend.spec]

  /// Whether the command line asks for a push.
  static func isPush(_ arguments: ParsedArguments) -> Bool {
    arguments.text(of: endpoint) != nil || arguments.has(pushFlag)
  }

  /// Pushes the selected sessions: `otlp-json` sends traces and metrics, `otlp-metrics-json`
  /// metrics only.
  static func push(
    _ arguments: ParsedArguments, format: Format, context: CommandContext
  ) async throws -> ExitCode {
    guard format == .otlpJSON || format == .otlpMetricsJSON else {
      throw UsageError(
        "--endpoint and --push send OTLP: use --format otlp-json (traces and metrics) or "
          + "otlp-metrics-json", command: spec.name)
    }
    guard arguments.text(of: out) == nil else {
      throw UsageError(
        "--out writes a file; --endpoint and --push send it: choose one",
        command: spec.name)
    }
    let signals: [OTLPSignal] = format == .otlpJSON ? [.traces, .metrics] : [.metrics]
    let flags = OTLPPushFlags(
      endpoint: arguments.text(of: endpoint),
      timeout: try context.value(timeout, in: arguments),
      compression: try context.value(compression, in: arguments),
      retryBudget: try context.value(retryBudget, in: arguments))
    let configuration = try OTLPPushConfiguration.resolve(
      flags: flags, environment: context.console.environment, signals: signals)
    let filter = try SharedOptions.filter(arguments, context: context)
    // The file is opened (and checked) by the pusher's reader; a missing one is 66 as always.
    _ = try context.openDatabase()
    let retries = PushRetryLines(console: context.console)
    // Cleared before anything else prints, the error line of a failure included.
    defer { retries.finish() }
    let pusher = OTLPPusher(
      databasePath: context.databasePath,
      sender: OTLPHTTPSender(
        configuration: configuration,
        jitter: context.console.retryJitter ?? { Double.random(in: 0..<1) },
        onRetry: retries.retried),
      options: OTLPPushOptions(
        signals: Set(signals), resend: arguments.has(resend)))
    let report = try await pusher.push(matching: filter)
    retries.finish()
    for delivery in report.deliveries {
      context.console.error(TerminalText.escaped(PushText.line(delivery)) + "\n")
      if let warning = PushText.rejection(delivery) {
        context.console.error("Warning: " + TerminalText.escaped(warning) + "\n")
      }
    }
    // Each failure carries its exit code (69 unreachable or changed, 76 refused) and its line.
    if let error = report.unreachable { throw error }
    if let error = report.refused { throw error }
    if let changed = report.changed, case .changed(let sequence) = changed.outcome {
      throw OTLPSessionChanged(endpoint: changed.endpoint, sequence: sequence)
    }
    return .success
  }
}

/// The lines a push prints: the one home of their wording.
enum PushText {
  /// `Session 3 'alpha' traces: 2 requests (27 spans) delivered to URL.`
  static func line(_ delivery: OTLPPushReport.Delivery) -> String {
    let head = "Session \(delivery.sessionID) '\(delivery.sessionName)' \(delivery.signal.rawValue)"
    let sent = "\(count(delivery.sent, "request")) (\(items(delivery.items, delivery.signal)))"
    let before =
      delivery.skipped > 0 ? "; \(count(delivery.skipped, "request")) delivered before" : ""
    switch delivery.outcome {
    case .delivered where delivery.sent == 0 && delivery.skipped > 0:
      return
        "\(head): already delivered to \(delivery.endpoint) "
        + "(\(count(delivery.skipped, "request"))); --resend sends it again."
    case .delivered where delivery.sent == 0:
      return "\(head): nothing to send."
    case .delivered:
      return "\(head): \(sent) delivered to \(delivery.endpoint)\(before)."
    case .waiting:
      return
        "\(head): \(sent) delivered to \(delivery.endpoint)\(before); the session is still "
        + "recording: the rest goes once it has ended."
    case .failed(let error):
      return
        "\(head): not delivered (\(sent) delivered before the failure\(before)): "
        + error.description
    case .changed(let sequence):
      return
        "\(head): request \(sequence) differs from the one \(delivery.endpoint) accepted "
        + "before; not sent."
    case .stopped:
      return "\(head): not sent (the push stopped at an unreachable endpoint)."
    }
  }

  /// `POST URL: attempt 2 failed (HTTP 503: Service Unavailable); attempt 3 in 1.8 s`: a retry,
  /// before its wait.
  static func retry(_ notice: OTLPRetryNotice) -> String {
    let what: String
    switch notice.kind {
    case .rejected(let status): what = "HTTP \(status): \(notice.message)"
    case .unreachable: what = "unreachable: \(notice.message)"
    }
    let wait = notice.wait.components
    let seconds = Double(wait.seconds) + Double(wait.attoseconds) / 1e18
    return
      "POST \(notice.endpoint): attempt \(notice.attempt) failed (\(what)); attempt "
      + "\(notice.attempt + 1) in \(Formatting.fixed(seconds, digits: 1)) s"
  }

  /// The receiver's partial success, when it refused items.
  static func rejection(_ delivery: OTLPPushReport.Delivery) -> String? {
    guard delivery.rejected > 0 else { return nil }
    let what = delivery.signal == .traces ? "spans" : "data points"
    return
      "\(delivery.endpoint) rejected \(delivery.rejected) of \(delivery.items) \(what) of "
      + "session \(delivery.sessionID)"
      + (delivery.rejectionMessage.map { ": \($0)" } ?? "")
  }

  private static func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
  }

  private static func items(_ number: Int, _ signal: OTLPSignal) -> String {
    count(number, signal == .traces ? "span" : "data point")
  }
}
