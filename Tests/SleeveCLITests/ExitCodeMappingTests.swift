import Foundation
import SleeveExport
import SleeveQuery
import SleeveRecorder
import SleeveStore
import Testing

@testable import SleeveCLI

/// Every error the command line can see names its own exit code and message
/// (`CommandFailure`), case by case as the one switch that mapped them did before the errors
/// carried their codes; an error type added without a code fails here.
@Suite("Errors carry their exit codes")
struct ExitCodeMappingTests {
  /// One error and the exit code the command line ended with on it before errors carried
  /// their codes.
  struct Case: Sendable, CustomTestStringConvertible {
    let error: any Error
    let exit: Int32
    var testDescription: String { "\(type(of: error)): \(error) → \(exit)" }
    init(_ error: any Error, _ exit: Int32) {
      self.error = error
      self.exit = exit
    }
  }

  static let busy = SQLiteError(code: 5, message: "database is locked")
  static let locked = SQLiteError(code: 6, message: "table is locked")
  static let cantOpen = SQLiteError(code: 14, message: "unable to open database file")
  static let notADatabase = SQLiteError(code: 26, message: "file is not a database")
  static let corrupt = SQLiteError(code: 11, message: "database disk image is malformed")
  static let ioFailure = SQLiteError(code: 10, message: "disk I/O error")
  static let full = SQLiteError(code: 13, message: "database or disk is full")
  static let constraint = SQLiteError(code: 19, message: "CHECK constraint failed", sql: "INSERT")
  static let busyTimeout = SQLiteError(code: 5 | 3 << 8, message: "busy past the timeout")
  static let readOnly = SQLiteError(code: 8, message: "attempt to write a readonly database")

  static let storeCases: [Case] = [
    Case(StoreError.notADatabase(path: "p", detail: "d"), 65),
    Case(StoreError.notASleeveDatabase(path: "p", tables: ["t"]), 65),
    Case(StoreError.newerSchema(path: "p", unknown: ["9999_future"]), 65),
    Case(StoreError.corrupt(path: "p", detail: "d"), 65),
    Case(StoreError.notARegularFile(path: "p", kind: "a FIFO"), 65),
    Case(StoreError.danglingLink(path: "p"), 66),
    Case(StoreError.companionFile(path: "p-wal", database: "p"), 65),
    Case(StoreError.unreadable(path: "p", reason: "permission denied"), 66),
    Case(StoreError.noSessionsYet(path: "p"), 66),
    Case(StoreError.olderSchema(path: "p", pending: ["0009_summary_checksums"]), 65),
    Case(StoreError.migrationRefused(path: "p", migration: "m", reason: "r"), 65),
    Case(StoreError.noSessionIDsLeft(path: "p"), 65),
  ]

  static let sqliteCases: [Case] = [
    Case(busy, 75), Case(locked, 75), Case(busyTimeout, 75), Case(cantOpen, 66),
    Case(notADatabase, 65), Case(corrupt, 65), Case(ioFailure, 74), Case(full, 74),
    Case(constraint, 74), Case(readOnly, 74),
  ]

  static let summaryCases: [Case] = [
    Case(SummaryError.damaged(session: 3, detail: "d"), 65),
    Case(SummaryError.rawRowsPruned(session: 3), 69),
    Case(SummaryError.damagedRollup(block: 0, detail: "d"), 65),
    Case(SummaryError.damagedInput(path: "in", session: 3, detail: "d"), 65),
  ]

  static let queryCases: [Case] = [
    Case(QueryError.databaseNotFound(path: "p"), 66),
    Case(QueryError.sessionNotFound("session 9"), 66),
    Case(QueryError.store(.unreadable(path: "p", reason: "r")), 66),
    Case(QueryError.store(.corrupt(path: "p", detail: "d")), 65),
    Case(QueryError.sqlite(busy, path: "p"), 75),
    Case(QueryError.sqlite(cantOpen, path: "p"), 66),
    Case(QueryError.sqlite(corrupt, path: "p"), 65),
    Case(QueryError.sqlite(ioFailure, path: "p"), 74),
    Case(QueryError.rawRowsPruned(sessions: [1, 2], need: "--exact"), 69),
    Case(QueryError.notSummarized(sessions: [1]), 69),
    Case(QueryError.summariesCannotAnswer(need: "--by event"), 69),
    Case(QueryError.damagedSummary(.damaged(session: 1, detail: "d")), 65),
    Case(QueryError.damagedSummary(.rawRowsPruned(session: 1)), 69),
  ]

  static let mergeCases: [Case] = [
    Case(MergeError.inputIsOutput(path: "p"), 64),
    Case(MergeError.olderSchema(path: "p"), 65),
  ]

  static let recorderCases: [Case] = [
    Case(RecorderError.store(.danglingLink(path: "p")), 66),
    Case(RecorderError.store(.newerSchema(path: "p", unknown: ["u"])), 65),
    Case(RecorderError.sqlite(busy, path: "p"), 75),
    Case(RecorderError.sqlite(full, path: "p"), 74),
    Case(RecorderError.writeFailed(cantOpen, path: "p", lostEvents: 3), 66),
    Case(RecorderError.writeRetrying(locked, path: "p", attempt: 2), 75),
    Case(RecorderError.closed(path: "p"), 74),
    Case(RecorderError.exportFailed(session: "u", message: "m"), 69),
    Case(
      RecorderError.timedOut(operation: "end", path: "p", limit: .seconds(1), cause: nil), 75),
  ]

  static let exportCases: [Case] = [
    Case(OTLPConfigurationError.noEndpoint(signal: .traces), 64),
    Case(OTLPConfigurationError.invalidEndpoint(source: "--endpoint", problem: .scheme), 64),
    Case(
      OTLPConfigurationError.invalidHeaders(
        variable: "OTEL_EXPORTER_OTLP_HEADERS", entry: 2, problem: .missingEquals), 64),
    Case(OTLPConfigurationError.invalidTimeout(source: "--timeout"), 64),
    Case(OTLPConfigurationError.invalidCompression(variable: "OTEL_X"), 64),
    Case(OTLPConfigurationError.grpcProtocol(variable: "OTEL_X"), 64),
    Case(OTLPConfigurationError.unknownProtocol(variable: "OTEL_X"), 64),
    Case(OTLPConfigurationError.invalidRetryBudget, 64),
    Case(OTLPPushError(kind: .unreachable, endpoint: "e", message: "m", attempts: 2), 69),
    Case(OTLPPushError(kind: .rejected(status: 400), endpoint: "e", message: "m", attempts: 1), 76),
    Case(OTLPSessionChanged(endpoint: "e", sequence: 2), 69),
  ]

  static let commandLineCases: [Case] = [
    Case(OutputFileError.refused(path: "o", reason: "r"), 64),
    Case(OutputFileError.cannotWrite(path: "o", reason: "r"), 74),
    Case(OutputFileError.noReader(path: "o"), 74),
    Case(UnknownFlag(key: "k", path: "p"), 66),
    Case(QuarantineNotFound("handler 'h' is not quarantined"), 66),
    Case(LintSuppressionNotFound("L1 is not suppressed at 's'"), 66),
    Case(UsageError("Unknown option '--x'", command: "latency"), 64),
  ]

  static let allCases =
    storeCases + sqliteCases + summaryCases + queryCases + mergeCases + recorderCases
    + exportCases + commandLineCases

  /// Every error type the command line can let reach its top level, all adopting the protocol
  /// (this list does not compile otherwise).
  static let adopting: [any CommandFailure.Type] = [
    StoreError.self, SQLiteError.self, SummaryError.self, MergeError.self, QueryError.self,
    RecorderError.self, OTLPConfigurationError.self, OTLPPushError.self, OTLPSessionChanged.self,
    OutputFileError.self, UnknownFlag.self,
    QuarantineNotFound.self, LintSuppressionNotFound.self, UsageError.self, ExitCode.self,
  ]

  /// The error types of the modules the command line links that never reach its top level,
  /// each with where it ends instead.
  static let neverEscaping: [String: String] = [
    "ValueError": "CommandContext.value turns it into a UsageError naming the option",
    "PushStopped": "the push pipe's producer catches it (the sender stopped)",
    "SessionChanged": "private to the request producer, which reports it in the push report",
    "Failure": "Gzip's, which the sender catches (it sends uncompressed)",
    "DecodingError": "HistogramCoding's, read as a damaged summary (SummaryError)",
    "RowDamage": "a summary row's, read as a damaged summary (SummaryError)",
    "UnknownPostcode": "the demo app's, thrown by a handler and recorded as its outcome",
    "CardDeclined": "the demo app's, thrown by a handler and recorded as its outcome",
    "OrderRejected": "the demo app's, thrown by a handler and recorded as its outcome",
    "ShippingTimeout": "the demo app's, thrown by a handler and recorded as its outcome",
    "MissingTotal": "the demo app's, thrown by a handler and recorded as its outcome",
  ]

  @Test("each error case ends the command with the code it always had", arguments: allCases)
  func eachCaseKeepsItsCode(_ item: Case) {
    #expect(item.error is any CommandFailure, "\(type(of: item.error)) adopts CommandFailure")
    let (code, message) = SleeveCLI.failure(item.error)
    #expect(code.rawValue == item.exit)
    // The line printed is the error's own one-line description, as it was.
    // A push that stopped at an unreachable endpoint also says nothing after it was marked.
    let stopped = (item.error as? OTLPPushError).flatMap {
      $0.kind == .unreachable ? "\($0); nothing more was marked delivered" : nil
    }
    let expected =
      (item.error as? UsageError)?.message ?? (item.error as? OTLPConfigurationError)?.message
      ?? stopped ?? String(describing: item.error)
    #expect(message == expected)
    #expect(message.map { !$0.contains("\n") } == true, "one line")
  }

  @Test("every listed error type has its cases pinned above")
  func everyAdoptingTypeIsPinned() {
    let pinned = Set(Self.allCases.map { String(describing: type(of: $0.error)) })
    for type in Self.adopting where type != ExitCode.self {
      #expect(pinned.contains(String(describing: type)), "\(type)")
    }
  }

  @Test("every error type declared in the modules the command line links is listed")
  func everyErrorTypeIsListed() throws {
    let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")
    let modules = ["SleeveStore", "SleeveQuery", "SleeveRecorder", "SleeveExport", "SleeveCLI"]
    let declaration = try Regex(
      #"(?m)^\s*(?:public |package |private |fileprivate )?(?:final )?(?:struct|enum|class|actor) (\w+)\b[^{\n]*:[^{\n]*\b(?:Error|CommandFailure)\b"#
    )
    var declared: Set<String> = []
    for module in modules {
      let directory = sources.appendingPathComponent(module)
      let files = try #require(FileManager.default.enumerator(atPath: directory.path))
      for case let file as String in files where file.hasSuffix(".swift") {
        let text = try String(
          contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
        for match in text.matches(of: declaration) {
          if let name = match.output[1].substring { declared.insert(String(name)) }
        }
      }
    }
    #expect(declared.contains("QueryError") && declared.contains("UsageError"), "the scan works")
    let listed = Set(Self.adopting.map { String(describing: $0) })
      .union(Self.neverEscaping.keys)
    #expect(declared.subtracting(listed).sorted() == [], "error types with no exit code")
    #expect(listed.subtracting(declared).sorted() == [], "listed types that are gone")
  }

  @Test("a thrown exit code ends the command with it and prints nothing more")
  func thrownExitCode() {
    for code in ExitCode.documented.map(\.code) {
      let (thrown, message) = SleeveCLI.failure(code)
      #expect(thrown == code)
      #expect(message == nil)
    }
  }

  /// An error that does not adopt the protocol: a programming mistake.
  struct Unadopted: Error, CustomStringConvertible {
    var description: String { "something unforeseen" }
  }

  @Test("an error that does not adopt the protocol is an I/O error with its description")
  func fallback() {
    let (code, message) = SleeveCLI.failure(Unadopted())
    #expect(code == .ioError)
    #expect(message == "something unforeseen")
  }
}
