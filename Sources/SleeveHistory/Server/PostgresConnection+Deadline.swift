import CPostgres
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Client-side deadlines: the server's `statement_timeout` and `lock_timeout` end what the
/// server runs, but a server that stops answering without closing its socket (a stopped
/// process, a hung host whose kernel still acknowledges) is ended here. Every wait for the
/// socket is a `poll` bounded by ``answerTimeout``; past it the connection is given up
/// (`unreachable`, 69) and never used again.
extension PostgresConnection {
  /// How long any one statement may go without its answer: `SLEEVE_HISTORY_TIMEOUT` seconds
  /// (a whole number from 1 to 86,400), else 90 (the server's 60 s statement timeout, and time
  /// to say so).
  static let answerTimeout: Duration = {
    let text = ProcessInfo.processInfo.environment["SLEEVE_HISTORY_TIMEOUT"] ?? ""
    guard let seconds = Int(text), (1...86_400).contains(seconds) else { return .seconds(90) }
    return .seconds(seconds)
  }()

  /// A deadline ``answerTimeout`` from now.
  var answerDeadline: ContinuousClock.Instant { .now + Self.answerTimeout }

  /// Sends what libpq has queued (the connection is non-blocking), waiting for the socket at
  /// most until `deadline`.
  func flush(until deadline: ContinuousClock.Instant, sql: String) throws(HistoryError) {
    while true {
      switch PQflush(handle) {
      case 0: return
      case 1: try waitForSocket(writing: true, until: deadline, sql: sql)
      default: throw failure(nil, sql: sql)
      }
    }
  }

  /// The next result of the statement sent, `nil` when it has no more, waiting for the server
  /// at most until `deadline`.
  func nextResult(until deadline: ContinuousClock.Instant, sql: String) throws(HistoryError)
    -> OpaquePointer?
  {
    while PQisBusy(handle) == 1 {
      try waitForSocket(writing: false, until: deadline, sql: sql)
      guard PQconsumeInput(handle) == 1 else { throw failure(nil, sql: sql) }
    }
    return PQgetResult(handle)
  }

  /// Waits until the socket is readable (or, `writing`, writable or readable, as libpq asks
  /// while it flushes), at most until `deadline`.
  func waitForSocket(writing: Bool, until deadline: ContinuousClock.Instant, sql: String)
    throws(HistoryError)
  {
    let socket = PQsocket(handle)
    guard socket >= 0 else { throw failure(nil, sql: sql) }
    var events = Int16(POLLIN)
    if writing { events |= Int16(POLLOUT) }
    while true {
      let remaining = ContinuousClock.now.duration(to: deadline)
      guard remaining > .zero else { throw noAnswer() }
      let milliseconds = Int32(
        clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds
          / 1_000_000_000_000_000 + 1)
      var descriptor = pollfd(fd: socket, events: events, revents: 0)
      let ready = poll(&descriptor, 1, milliseconds)
      if ready > 0 { return }
      if ready < 0, errno != EINTR { throw failure(nil, sql: sql) }
    }
  }

  /// The connection given up for good after a deadline passed.
  private func noAnswer() -> HistoryError {
    abandoned = true
    return HistoryError(
      .unreachable,
      "\(location.redacted): no answer within \(Self.answerTimeout.components.seconds) s; the "
        + "server stopped answering (SLEEVE_HISTORY_TIMEOUT sets the bound)")
  }
}
