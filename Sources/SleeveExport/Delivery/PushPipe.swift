import Dispatch
import Synchronization

/// What the request producer hands the sender, in stream order: a session's signal begins,
/// its requests not yet delivered follow, then its end.
enum PushItem: Sendable {
  /// A session's signal begins; it is `report.deliveries[index]` from now on.
  case begin(OTLPPushReport.Delivery)
  /// A request to send: the `sequence`-th of delivery `index`.
  case request(index: Int, sequence: Int64, body: OTLPRequestBody)
  /// Delivery `index` has no more requests: `skipped` were delivered before; `changed` is the
  /// sequence of a request that differs from the one delivered before (nothing after it
  /// was produced); `heldBack`: the session is still recording, and its last request (or
  /// its metrics) waits until it ends.
  case end(index: Int, skipped: Int, changed: Int64?, heldBack: Bool)
  /// Reading the database failed: the push stops with this error.
  case failure(any Error)
}

/// The producer's signal that the sender stopped listening (an endpoint stayed unreachable).
struct PushStopped: Error {}

/// The hand-off between the thread that reads and encodes requests and the task that sends
/// them: a stream holding at most `capacity` requests not yet sent (so memory stays at a few
/// request bodies, and the next request is encoded while one is on the wire).
final class PushPipe: Sendable {
  /// The items, in order.
  let stream: AsyncStream<PushItem>
  private let continuation: AsyncStream<PushItem>.Continuation
  private let permits: DispatchSemaphore
  private let stopped = Atomic(false)

  /// A pipe holding at most `capacity` unsent requests.
  init(capacity: Int) {
    (stream, continuation) = AsyncStream.makeStream(of: PushItem.self)
    permits = DispatchSemaphore(value: max(capacity, 1))
  }

  /// Hands over a request, waiting (on the producer's own thread, never a task's) while
  /// `capacity` are unsent.
  ///
  /// - Throws: `PushStopped` once the sender stopped.
  func put(_ item: PushItem) throws(PushStopped) {
    permits.wait()
    guard !stopped.load(ordering: .acquiring) else {
      permits.signal()
      throw PushStopped()
    }
    continuation.yield(item)
  }

  /// Hands over an item that holds no request body (never waits).
  func send(_ item: PushItem) {
    continuation.yield(item)
  }

  /// The sender is done with one request: the producer may hand over another.
  func release() {
    permits.signal()
  }

  /// The sender stops: the producer's next `put` throws, and a waiting one wakes.
  func stop() {
    stopped.store(true, ordering: .releasing)
    permits.signal()
  }

  /// The producer is done: the stream ends after the items already handed over.
  func finish() {
    continuation.finish()
  }
}
