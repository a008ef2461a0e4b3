import CPostgres

#if canImport(Glibc)
  import Glibc
#endif

/// One connection to a history's server through libpq: statements with bound parameters
/// (a session's rows as arrays, `SessionInsert`) and transactions. Not shared between threads.
///
/// Every wait is bounded: connecting gives up after `connect_timeout` (10 s unless the URL or
/// `PGCONNECT_TIMEOUT` says otherwise), a statement after `statement_timeout` (60 s) and a
/// lock wait after `lock_timeout` (30 s), each then a ``HistoryError`` of its kind.
final class PostgresConnection {
  let handle: OpaquePointer
  /// Set when a deadline passed (``answerTimeout``): the connection's state is unknown, so it
  /// is never used again.
  var abandoned = false
  /// Where it is connected (messages name it redacted).
  let location: HistoryLocation

  /// Connects to `location`.
  ///
  /// - Throws: `HistoryError`: unreachable (69) when no server answers, denied (77) when the
  ///   credentials are refused, notFound (66) for a database that does not exist.
  init(_ location: HistoryLocation) throws(HistoryError) {
    self.location = location
    var keywords = ["dbname", "fallback_application_name"]
    var values = [location.url, "sleeve"]
    if getenv("PGCONNECT_TIMEOUT") == nil, location.options["connect_timeout"] == nil {
      keywords.append("connect_timeout")
      values.append("10")
    }
    let connection = Self.connect(keywords: keywords, values: values)
    guard let connection else {
      throw HistoryError(.failed, "\(location.redacted): libpq could not allocate a connection")
    }
    guard PQstatus(connection) == CONNECTION_OK else {
      let message = Self.message(of: connection)
      PQfinish(connection)
      throw HistoryError(
        Self.connectFailureKind(message),
        location.scrubbed("\(location.redacted): \(message)"))
    }
    handle = connection
    // Non-blocking, so no send can wait past a deadline either (see PostgresConnection+Deadline).
    guard PQsetnonblocking(connection, 1) == 0 else {
      PQfinish(connection)
      throw HistoryError(
        .failed, "\(location.redacted): libpq could not make the connection non-blocking")
    }
    do {
      try execute("SET statement_timeout = '60s'")
      try execute("SET lock_timeout = '30s'")
      try execute("SET client_min_messages = warning")
      // Every statement here is short: compiling it costs more than it saves (18 ms seen).
      try execute("SET jit = off")
    } catch {
      PQfinish(connection)
      throw error
    }
  }

  deinit { PQfinish(handle) }

  private static func connect(keywords: [String], values: [String]) -> OpaquePointer? {
    let keywordPointers = keywords.map { strdup($0) } + [nil]
    let valuePointers = values.map { strdup($0) } + [nil]
    defer {
      for pointer in keywordPointers { free(pointer) }
      for pointer in valuePointers { free(pointer) }
    }
    return keywordPointers.map { UnsafePointer($0) }.withUnsafeBufferPointer { keys in
      valuePointers.map { UnsafePointer($0) }.withUnsafeBufferPointer { vals in
        PQconnectdbParams(keys.baseAddress, vals.baseAddress, 1)
      }
    }
  }

  /// What kind of failure a failed connection's message names. libpq gives no SQLSTATE for a
  /// connection refused at start-up, so the server's own words (always English under the
  /// `C` locale libpq asks for) decide.
  static func connectFailureKind(_ message: String) -> HistoryError.Kind {
    let lowered = message.lowercased()
    if lowered.contains("password authentication failed")
      || lowered.contains("no password supplied")
      || lowered.contains("authentication failed")
      || (lowered.contains("role") && lowered.contains("does not exist"))
      || lowered.contains("permission denied")
      || lowered.contains("pg_hba.conf")
    {
      return .denied
    }
    if lowered.contains("database") && lowered.contains("does not exist") { return .notFound }
    // What the URL itself got wrong (an invalid port, sslmode or option value; a missing
    // client certificate it names) is the command line's mistake.
    if lowered.contains("invalid") || lowered.contains("unrecognized") {
      return .usage
    }
    return .unreachable
  }

  private static func message(of connection: OpaquePointer) -> String {
    guard let text = PQerrorMessage(connection) else { return "unknown libpq error" }
    return HistoryError.oneLine(String(cString: text))
  }

  /// Runs `sql` with `parameters` bound to `$1…`, returning its rows (none for a command).
  @discardableResult
  func execute(_ sql: String, _ parameters: [PostgresValue] = []) throws(HistoryError)
    -> PostgresResult
  {
    let wires = parameters.map(\.wire)
    var buffers: [UnsafeMutablePointer<CChar>?] = []
    defer { for buffer in buffers { free(buffer) } }
    var lengths: [Int32] = []
    var formats: [Int32] = []
    for wire in wires {
      guard let wire else {
        buffers.append(nil)
        lengths.append(0)
        formats.append(0)
        continue
      }
      // Text parameters are read as C strings (their length is ignored): NUL-terminated.
      let buffer = calloc(wire.bytes.count + 1, 1)!.assumingMemoryBound(to: CChar.self)
      wire.bytes.withUnsafeBytes { raw in
        if let base = raw.baseAddress { memcpy(buffer, base, wire.bytes.count) }
      }
      buffers.append(buffer)
      lengths.append(Int32(wire.bytes.count))
      formats.append(wire.isBinary ? 1 : 0)
    }
    try usable(sql: sql)
    let deadline = answerDeadline
    let sent = buffers.map { UnsafePointer($0) }.withUnsafeBufferPointer { values in
      PQsendQueryParams(
        handle, sql, Int32(parameters.count), nil, values.baseAddress, lengths, formats, 0)
    }
    guard sent == 1 else { throw failure(nil, sql: sql) }
    return try collect(sql: sql, deadline: deadline)
  }

  /// Runs `sql`, several statements separated by semicolons, with no parameters (a
  /// migration's script).
  func executeScript(_ sql: String) throws(HistoryError) {
    try usable(sql: sql)
    let deadline = answerDeadline
    guard PQsendQuery(handle, sql) == 1 else { throw failure(nil, sql: sql) }
    try collect(sql: sql, deadline: deadline)
  }

  /// Refuses a connection given up after a deadline.
  private func usable(sql: String) throws(HistoryError) {
    guard !abandoned else {
      throw HistoryError(
        .unreachable, "\(location.redacted): the connection was given up (no answer in time)")
    }
  }

  /// Sends what is queued and reads every result of the statement (or script) sent: the
  /// first failure, else the last result.
  @discardableResult
  private func collect(sql: String, deadline: ContinuousClock.Instant) throws(HistoryError)
    -> PostgresResult
  {
    try flush(until: deadline, sql: sql)
    var last: OpaquePointer?
    var firstFailure: HistoryError?
    while let result = try nextResult(until: deadline, sql: sql) {
      switch PQresultStatus(result) {
      case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
        if let last { PQclear(last) }
        last = result
      default:
        firstFailure = firstFailure ?? failure(result, sql: sql)
        PQclear(result)
      }
    }
    if let firstFailure {
      if let last { PQclear(last) }
      throw firstFailure
    }
    return try checked(last, sql: sql)
  }

  /// Runs `body` in a transaction, committed when it returns and rolled back when it throws.
  func transaction<Result>(_ body: () throws -> Result) throws -> Result {
    try execute("BEGIN")
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      if isConnected { _ = try? execute("ROLLBACK") }
      throw error
    }
  }

  /// Whether the connection is still up.
  var isConnected: Bool { !abandoned && PQstatus(handle) == CONNECTION_OK }

  /// `result` when it succeeded (freed result when it throws).
  @discardableResult
  func checked(_ result: OpaquePointer?, sql: String) throws(HistoryError)
    -> PostgresResult
  {
    guard let result else { throw failure(nil, sql: sql) }
    switch PQresultStatus(result) {
    case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
      return PostgresResult(result)
    default:
      let error = failure(result, sql: sql)
      PQclear(result)
      throw error
    }
  }

  func failure(_ result: OpaquePointer?, sql: String) -> HistoryError {
    var state: String?
    var text: String
    if let result {
      if let code = PQresultErrorField(result, Int32(UInt8(ascii: "C"))) {
        state = String(cString: code)
      }
      text = PQresultErrorMessage(result).map { String(cString: $0) } ?? ""
      if text.isEmpty { text = Self.message(of: handle) }
    } else {
      text = Self.message(of: handle)
    }
    var kind = state.map(HistoryError.kind(ofSQLState:)) ?? .failed
    if PQstatus(handle) != CONNECTION_OK { kind = .unreachable }
    let message = location.scrubbed("\(location.redacted): \(HistoryError.oneLine(text))")
    return HistoryError(kind, message, sqlState: state)
  }
}

@available(*, unavailable)
extension PostgresConnection: Sendable {}
