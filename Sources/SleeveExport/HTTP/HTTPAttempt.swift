import Foundation
import Synchronization

/// How one HTTP attempt ended.
enum HTTPAttemptOutcome: Sendable, Equatable {
  /// The receiver answered: its status, its `Retry-After` header, and at most
  /// `HTTPTransport.bodyLimit` bytes of its body.
  case answered(status: Int, retryAfter: String?, body: [UInt8])
  /// No answer: why, one line (`connection refused`, `no answer within 2 s`).
  case failed(String)
}

/// One `POST`: where it goes, its header lines and its body.
struct HTTPPost: Sendable {
  /// An `http` or `https` URL.
  var url: String
  /// `(name, value)` pairs, sent in order. Names are HTTP tokens and values hold no control
  /// characters (`OTLPHeaders` refuses any other), so no pair can end its header line early.
  var headers: [(name: String, value: String)]
  /// The body, sent as is.
  var body: [UInt8]
}

/// Sends single HTTP requests with libcurl, each bounded in time and in the memory its answer
/// takes.
///
/// Each attempt is one transfer on a thread of its own (never a cooperative-pool thread): the
/// deadline is the attempt's whole duration (`CURLOPT_TIMEOUT_MS`, which a receiver trickling
/// bytes cannot stretch); the body is kept up to `bodyLimit` bytes and the transfer stops the
/// moment a byte more arrives, so an endless answer costs 64 KiB and no more time. Redirects
/// are not followed (a 3xx is the answer), so headers never go to a host that was not
/// configured. A cancelled attempt stops within curl's progress interval (under a second).
///
/// Sendable: it has no stored state; each attempt owns its own transfer.
final class HTTPTransport: Sendable {
  /// The most of a response body kept: 64 KiB.
  static let bodyLimit = 64 * 1024

  init() { CurlTransfer.initializeOnce() }

  /// Sends `post`, giving up after `deadline`.
  func perform(_ post: HTTPPost, deadline: Duration) async -> HTTPAttemptOutcome {
    let cancelled = CancelFlag()
    let handOff = AttemptHandOff()
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        Thread {
          handOff.publish(CurlTransfer.run(post, deadline: deadline, cancelled: cancelled))
          continuation.resume()
        }.start()
      }
    } onCancel: {
      cancelled.set()
    }
    return handOff.outcome
  }
}

/// An attempt's outcome, handed from its transfer thread to the task awaiting it.
///
/// `@unchecked Sendable`, and safe: `stored` is written once, by the transfer thread, before
/// `published` is stored with release ordering and before the continuation is resumed; the
/// awaiting task reads it only after that resume, and after loading `published` with acquire
/// ordering. The continuation alone orders the write before the read; the release and acquire
/// pair states the same order where ThreadSanitizer sees it: it does not always see the order a
/// continuation resumed from a thread the runtime does not own gives, and CI's ThreadSanitizer
/// run once reported the answer's bytes as raced between the two threads.
final class AttemptHandOff: @unchecked Sendable {
  private static let none = HTTPAttemptOutcome.failed("the transfer ended without an outcome")
  private var stored = AttemptHandOff.none
  private let published = Atomic<Bool>(false)

  /// Called once, by the transfer thread, when the transfer has ended.
  func publish(_ outcome: HTTPAttemptOutcome) {
    stored = outcome
    published.store(true, ordering: .releasing)
  }

  /// What the transfer published; read after the continuation resumed.
  var outcome: HTTPAttemptOutcome {
    published.load(ordering: .acquiring) ? stored : Self.none
  }
}

/// Set once when the task awaiting an attempt is cancelled; read by the transfer's progress
/// callback.
final class CancelFlag: Sendable {
  private let flag = Atomic<Bool>(false)

  /// Marks the attempt cancelled.
  func set() { flag.store(true, ordering: .relaxed) }

  /// Whether the attempt was cancelled.
  var isSet: Bool { flag.load(ordering: .relaxed) }
}
