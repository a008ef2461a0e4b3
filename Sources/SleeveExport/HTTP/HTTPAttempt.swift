import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// How one HTTP attempt ended.
enum HTTPAttemptOutcome: Sendable, Equatable {
  /// The receiver answered: its status, its `Retry-After` header, and at most
  /// `HTTPTransport.bodyLimit` bytes of its body.
  case answered(status: Int, retryAfter: String?, body: [UInt8])
  /// No answer: why, one line (`connection refused`, `no answer within 2 s`).
  case failed(String)
}

/// Sends single HTTP requests through one `URLSession`, each bounded in time and in the
/// memory its answer takes.
///
/// The deadline is the attempt's whole duration: a task racing the request cancels it when the
/// deadline passes, because `URLRequest.timeoutInterval` alone is an idle timeout that a
/// receiver trickling bytes never trips. Bodies are kept up to `bodyLimit` bytes; a longer one
/// ends the attempt with what was kept. Redirects are not followed (a 3xx is the answer), so
/// headers never go to a host that was not configured.
///
/// Sendable: its stored properties are a `URLSession` (thread-safe, Sendable) and a `Mutex`.
final class HTTPTransport: Sendable {
  /// The most of a response body kept: 64 KiB.
  static let bodyLimit = 64 * 1024

  private let session: URLSession
  private let tasks: TaskTable

  init() {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    tasks = TaskTable()
    session = URLSession(configuration: configuration, delegate: tasks, delegateQueue: nil)
  }

  /// Ends the session: running attempts end as cancelled.
  func close() { session.invalidateAndCancel() }

  /// Sends `request`, giving up after `deadline`.
  func perform(_ request: URLRequest, deadline: Duration) async -> HTTPAttemptOutcome {
    await withTaskGroup(of: HTTPAttemptOutcome?.self) { group in
      group.addTask { await self.run(request) }
      group.addTask {
        do {
          try await Task.sleep(for: deadline)
        } catch {
          return nil
        }
        return .failed("no complete answer within \(deadline.secondsText) (attempt deadline)")
      }
      var outcome = HTTPAttemptOutcome.failed("cancelled")
      while let next = await group.next() {
        if let next {
          outcome = next
          break
        }
      }
      group.cancelAll()
      return outcome
    }
  }

  private func run(_ request: URLRequest) async -> HTTPAttemptOutcome {
    let task = session.dataTask(with: request)
    let id = task.taskIdentifier
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        if tasks.register(id, continuation) { task.resume() }
      }
    } onCancel: {
      tasks.finish(id, with: .failed("cancelled"), leavingTombstone: true)
      task.cancel()
    }
  }
}

/// The attempts in flight, by task identifier, and the session's delegate that completes them.
///
/// Each attempt's continuation is resumed exactly once: whoever removes it from the table
/// under the lock (the completion, the body limit or a cancellation) resumes it. A
/// cancellation that comes before the registration leaves a tombstone, so the registration
/// resumes at once instead of waiting.
///
/// Sendable: its only stored property is a `Mutex`.
private final class TaskTable: NSObject, URLSessionDataDelegate, Sendable {
  private enum Slot {
    case waiting(CheckedContinuation<HTTPAttemptOutcome, Never>, body: [UInt8])
    case cancelled
  }

  private let slots = Mutex<[Int: Slot]>([:])

  /// Records `continuation` for task `id`; `false` (and the continuation resumed) when the
  /// attempt was already cancelled.
  func register(_ id: Int, _ continuation: CheckedContinuation<HTTPAttemptOutcome, Never>)
    -> Bool
  {
    let cancelled = slots.withLock { table -> Bool in
      if case .cancelled = table[id] {
        table[id] = nil
        return true
      }
      table[id] = .waiting(continuation, body: [])
      return false
    }
    if cancelled { continuation.resume(returning: .failed("cancelled")) }
    return !cancelled
  }

  /// Ends task `id`'s attempt with `outcome` if it is still waiting. A cancellation
  /// (`leavingTombstone`) that finds no attempt yet marks the identifier, so its registration
  /// ends at once (identifiers are never reused within a session).
  func finish(_ id: Int, with outcome: HTTPAttemptOutcome, leavingTombstone: Bool = false) {
    let waiting = slots.withLock { table -> CheckedContinuation<HTTPAttemptOutcome, Never>? in
      guard let slot = table[id] else {
        if leavingTombstone { table[id] = .cancelled }
        return nil
      }
      table[id] = nil
      if case .waiting(let continuation, _) = slot { return continuation }
      return nil
    }
    waiting?.resume(returning: outcome)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let id = dataTask.taskIdentifier
    let full = slots.withLock { table -> [UInt8]? in
      guard case .waiting(let continuation, var body) = table[id] else { return nil }
      table[id] = nil  // no copy-on-write while appending
      body.append(contentsOf: data.prefix(HTTPTransport.bodyLimit - body.count))
      table[id] = .waiting(continuation, body: body)
      return body.count >= HTTPTransport.bodyLimit ? body : nil
    }
    if let full {
      finish(id, with: Self.answer(dataTask.response, body: full))
      dataTask.cancel()
    }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    let id = task.taskIdentifier
    if let error {
      finish(id, with: .failed(Self.describe(error)))
      return
    }
    let body = slots.withLock { table -> [UInt8] in
      if case .waiting(_, let body) = table[id] { return body }
      return []
    }
    finish(id, with: Self.answer(task.response, body: body))
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }

  private static func answer(_ response: URLResponse?, body: [UInt8]) -> HTTPAttemptOutcome {
    guard let http = response as? HTTPURLResponse else {
      return .failed("the answer was not HTTP")
    }
    return .answered(
      status: http.statusCode, retryAfter: http.value(forHTTPHeaderField: "Retry-After"),
      body: body)
  }

  /// A transport error as a short phrase; others as their description, made one line.
  private static func describe(_ error: any Error) -> String {
    guard let code = (error as? URLError)?.code else {
      return ReceiverText.oneLine(String(describing: error)) ?? "transport error"
    }
    switch code {
    case .cannotConnectToHost: return "connection refused"
    case .timedOut: return "timed out waiting for data"
    case .networkConnectionLost: return "connection closed before a complete answer"
    case .cannotFindHost, .dnsLookupFailed: return "host not found"
    case .notConnectedToInternet: return "no network"
    case .cancelled: return "cancelled"
    case .badServerResponse: return "the answer was not valid HTTP"
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
      .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid:
      return "TLS failed: " + (ReceiverText.oneLine(error.localizedDescription) ?? "")
    default:
      return "transport error \(code.rawValue): "
        + (ReceiverText.oneLine(error.localizedDescription) ?? "")
    }
  }
}
