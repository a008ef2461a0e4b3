import SleeveExport
import SleeveQuery
import SleeveStore

/// `sleeve export`: recorded sessions in formats other tools load.
enum ExportCommand: Command {
  /// The export formats.
  enum Format: String, CaseIterable {
    case otlpJSON = "otlp-json"
    case otlpMetricsJSON = "otlp-metrics-json"
    case ndjson
    case csv
  }

  static let spec = CommandSpec(
    name: "export",
    abstract: "Export sessions as OpenTelemetry traces or metrics, NDJSON or CSV.",
    discussion: """
      otlp-json: OTLP/JSON trace requests, one per line (the OpenTelemetry Collector's
      otlpjsonfile receiver reads them): a span per fire, a child span per handler invocation.
      otlp-metrics-json: OTLP/JSON metric requests, one line per session: per handler and
      variant an exponential histogram of its durations (scale 5, within 1.083%) and a
      counter per outcome status, as deltas over the session.
      ndjson, csv: one row per handler invocation joined with its fire, handler and session;
      the columns are listed in README. Streams: memory stays flat for any session size.
      With --out the file appears only once complete. A session whose raw rows were pruned
      (sleeve prune) still exports its metrics (from its summaries); the other formats refuse
      a selection holding one with exit 69, naming it.
      --endpoint URL (or --push, with OTEL_EXPORTER_OTLP_ENDPOINT) sends the same OTLP over
      HTTP instead: otlp-json (the default then) sends traces to /v1/traces and metrics to
      /v1/metrics, otlp-metrics-json metrics only. Headers come from
      OTEL_EXPORTER_OTLP_HEADERS (never printed or recorded); the OTEL_EXPORTER_OTLP_*
      variables give the defaults, the flags win. Retries with backoff and jitter on 429,
      502, 503, 504 and connection errors, honouring Retry-After, within --retry-budget.
      Every request the receiver accepts is recorded in the database, so an interrupted push
      resumes where it stopped and a second one sends nothing new (--resend sends again); a
      session still recording sends its last request and its metrics once it has ended.
      Exit 69: an endpoint stayed unreachable (nothing more marked delivered), or a session
      changed after part of it was delivered; 76: the receiver refused a request.
      """,
    options: [SharedOptions.db.spec, format.spec, out.spec] + pushOptions
      + [SessionTerms.session, SessionTerms.name, SessionTerms.since].map(\.spec))

  /// `--format <format>`, one of ``Format``'s.
  static let format = Option<Format>(
    "format", value: "format",
    help: "otlp-json, otlp-metrics-json, ndjson or csv (default: ndjson).")
  /// `--out <file>`.
  static let out = SharedOptions.out(help: "Write to this file (default: standard output).")

  static var usesSharedFormat: Bool { false }

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let format =
      try context.value(Self.format, in: arguments) ?? (isPush(arguments) ? .otlpJSON : .ndjson)
    if isPush(arguments) { return try await push(arguments, format: format, context: context) }
    if let stray = arguments.given(among: pushOnlyOptions).first {
      throw UsageError("--\(stray.name) goes with --endpoint or --push", command: spec.name)
    }
    let filter = try SharedOptions.filter(arguments, context: context)
    let database = try context.openDatabase()
    // One snapshot: the sessions selected and every row exported come from the same state.
    let (sessions, exported) = try database.snapshot {
      () throws -> ([SessionSummary], ExportTally) in
      let sessions = try database.sessions(matching: filter)
      // The metrics are the summaries; every other format reads raw rows, so a pruned
      // session is refused (69) before any output.
      if format != .otlpMetricsJSON {
        try database.requireRawRows(of: sessions, for: "sleeve export --format \(format.rawValue)")
      }
      let sink = try ExportSink(
        path: arguments.text(of: out), protecting: [context.databasePath], console: context.console)
      var tally = ExportTally(format: format)
      // Progress on a terminal, only when the data goes to a file (not over the data itself).
      let progress = sink.path == nil ? nil : ProgressLine(console: context.console)
      var current = 0
      func report() {
        progress?.update(
          "Exporting session \(current) of \(sessions.count): \(tally.outcomes) handler invocations"
        )
      }
      switch format {
      case .otlpJSON:
        let exporter = OTLPTraceEncoder { request in
          try sink.append { line in
            line += request.json
            line += "\n"
          }
        }
        for session in sessions {
          current += 1
          try exporter.begin(session)
          try database.forEachFireGroup(in: session) { group in
            tally.add(group)
            try exporter.add(group)
            report()
          }
        }
        try exporter.flush()
      case .otlpMetricsJSON:
        for session in sessions {
          current += 1
          let summaries = try database.handlerSummaries(of: session)
          let request = OTLPMetricsEncoder.request(session, summaries: summaries)
          tally.add(summaries, points: request.items)
          try sink.write(request.json + "\n")
          report()
        }
      case .ndjson, .csv:
        let exporter: any RowExporter = format == .csv ? CSVRowExporter() : NDJSONRowExporter()
        try exporter.begin(into: sink)
        for session in sessions {
          current += 1
          try database.forEachFireGroup(in: session) { group in
            tally.add(group)
            for outcome in group.outcomes {
              try exporter.write(
                ExportColumns.cells(session: session, fire: group.fire, outcome: outcome),
                into: sink)
            }
            report()
          }
        }
      }
      try sink.finish()
      progress?.finish()
      return (sessions, tally)
    }
    if let path = arguments.text(of: out) {
      context.console.error(
        TerminalText.escaped(
          "Exported \(exported.description) from "
            + "\(SharedOptions.sessionsLine(sessions).lowercasedFirst) to \(path).") + "\n")
    }
    return .success
  }
}

extension String {
  /// The string with its first letter lowercased: `Session 1` → `session 1`.
  fileprivate var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}
