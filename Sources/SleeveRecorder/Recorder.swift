import Foundation
import SleeveCore
import SleeveStore

/// Records sessions of dispatch events into a Sleeve database file.
///
/// Opening creates and migrates the file; one background writer thread owns the connection
/// for the recorder's lifetime. Several recorders, in this process or others, may write to the
/// same file at once.
///
/// Opening a recorder and starting a session wait for the file; each has one name with a
/// synchronous and an asynchronous form, as Swift overloads on `async`: async code (a test, a
/// task) gets the form that waits without blocking a thread, synchronous code (an app's
/// launch) the one that blocks the calling thread.
///
/// ```swift
/// let recorder = try await Recorder(path: "sleeve.sqlite")
/// let session = try await recorder.startSession(name: "CheckoutTests")
/// session.attach(button)
/// button.tap()
/// try await session.end()
/// ```
public final class Recorder: Sendable {
  /// The database file.
  public let path: String
  /// The options every session of this recorder uses.
  public let options: RecorderOptions
  let writer: Writer
  private let nextSession = Locked<UInt32>(0)

  /// Opens (creating and migrating) the database at `path` and starts the writer, blocking
  /// the calling thread meanwhile: the form for synchronous code. Async code gets the `async`
  /// overload of this initializer, which does not block.
  ///
  /// - Throws: `RecorderError.store` for a file that is not a Sleeve database or was written
  ///   by a newer Sleeve; `RecorderError.sqlite` when the file cannot be opened or written.
  public convenience init(path: String, options: RecorderOptions = RecorderOptions()) throws {
    self.init(path: path, options: options, writer: try Writer(path: path, options: options))
  }

  /// Opens a recorder as the synchronous initializer does, waiting for its writer to open the
  /// file on a thread of its own rather than the caller's: the form async code gets (a test
  /// trait, a task), which must not tie up a thread of the cooperative pool.
  ///
  /// - Throws: what the synchronous initializer throws.
  public convenience init(path: String, options: RecorderOptions = RecorderOptions())
    async throws
  {
    let opened: Result<Writer, any Error> = await withCheckedContinuation { continuation in
      let opener = Thread {
        continuation.resume(returning: Result { try Writer(path: path, options: options) })
      }
      opener.name = "sleeve.open"
      opener.start()
    }
    self.init(path: path, options: options, writer: try opened.get())
  }

  private init(path: String, options: RecorderOptions, writer: Writer) {
    self.path = path
    self.options = options
    self.writer = writer
    ExitFlush.register(writer)
  }

  /// Releasing a recorder never blocks the releasing thread (often the main actor): the writer
  /// stops taking events and finishes on its own thread (writes what is buffered, closes the
  /// connection, which checkpoints the file). A process that exits meanwhile waits for it, up
  /// to `waitTimeout`. Call ``close()`` to wait for it explicitly.
  deinit {
    writer.beginClosing()
  }

  /// Writes what is buffered, closes the connection (checkpointing the file, so no `-wal` is
  /// left) and stops the writer, waiting at most `options.waitTimeout` without blocking the
  /// caller's thread. Sessions still open are not ended (they read as unterminated). Later
  /// sessions cannot start; calling it again returns at once.
  ///
  /// - Throws: `RecorderError` (a timeout, as `isTimeout` says) when the writer did not stop
  ///   in time, for example while another process holds the write lock.
  public func close() async throws {
    let writer = self.writer
    let limit = options.waitTimeout
    // What sessions keep staged between fires is written before the writer stops.
    await MainActor.run { writer.staged.handOverAll() }
    // A thread of its own for the blocking wait: never one of the cooperative pool's, and
    // never queued behind other work as a shared dispatch queue could be.
    let stopped = await withCheckedContinuation { continuation in
      let waiter = Thread { continuation.resume(returning: writer.close(timeout: limit)) }
      waiter.name = "sleeve.close"
      waiter.start()
    }
    guard stopped else {
      throw RecorderError.timedOut(
        operation: "close the recorder", path: path, limit: limit,
        cause: writer.lastTimeoutError)
    }
  }

  /// Starts a session: its row is committed before this returns, or this throws within
  /// `options.waitTimeout` (a lock held by another process past it: `RecorderError.timedOut`).
  /// This form blocks the calling thread while it waits: the form for synchronous code; async
  /// code gets the `async` overload of the same name, which does not block.
  ///
  /// - Parameters:
  ///   - name: The session's name, e.g. the test suite's.
  ///   - tags: Free-form tags.
  ///   - environment: Names of environment variables to record (only these; never the whole
  ///     environment).
  ///   - durability: Overrides the recorder's durability for this session.
  ///   - context: Where this session ran, over `options.context` and the environment: each
  ///     field set here wins (so one process can record sessions of several commits or
  ///     branches). Its `session_context` row is written with the session's row, and only when
  ///     a field (or `test`) is known.
  ///   - test: The test this session records (see ``TestIdentity``), if any.
  /// - Throws: `RecorderError` when the session's row cannot be written: `.timedOut` past the
  ///   wait timeout, `.sqlite` for other failures, `.closed` when the recorder is closing.
  public func startSession(
    name: String, tags: [String] = [], environment: [String] = [],
    durability: RecorderOptions.Durability? = nil, context: RunContext? = nil,
    test: TestIdentity? = nil
  ) throws -> RecordingSession {
    let pending = try requestSession(
      name: name, tags: tags, environment: environment, durability: durability,
      context: context, test: test)
    let done = writer.buffer.waitUntilFinished(
      pending.sequence, deadline: writer.buffer.deadlineFromNow())
    return try session(for: pending, finished: done)
  }

  /// Starts a session as the synchronous `startSession` does, waiting for its row without
  /// blocking a thread: the form async code gets (a test trait, a task), which must not tie
  /// up a thread of the cooperative pool.
  ///
  /// - Throws: what the synchronous `startSession` throws.
  public func startSession(
    name: String, tags: [String] = [], environment: [String] = [],
    durability: RecorderOptions.Durability? = nil, context: RunContext? = nil,
    test: TestIdentity? = nil
  ) async throws -> RecordingSession {
    let pending = try requestSession(
      name: name, tags: tags, environment: environment, durability: durability,
      context: context, test: test)
    let done = await writer.buffer.finished(
      pending.sequence, deadline: writer.buffer.deadlineFromNow())
    return try session(for: pending, finished: done)
  }

  /// A session start handed to the writer.
  private struct PendingSession {
    let key: SessionKey
    let metadata: SessionMetadata
    let start: SessionStart
    let sequence: UInt64
  }

  private func requestSession(
    name: String, tags: [String], environment: [String],
    durability: RecorderOptions.Durability?, context: RunContext?, test: TestIdentity?
  ) throws -> PendingSession {
    let key = SessionKey(
      rawValue: nextSession.withLock {
        $0 += 1
        return $0
      })
    let metadata = SessionMetadata(name: name, tags: tags, environmentNames: environment)
    let resolved = RunContext(
      environment: options.contextEnvironment ?? ProcessInfo.processInfo.environment
    ).overridden(by: options.context).overridden(by: context ?? RunContext())
    let start = SessionStart(
      metadata: metadata, context: resolved, test: test?.recorded,
      durability: durability ?? options.durability,
      startedUnixNanoseconds: WallClock.unixNanoseconds(),
      startedMonotonicNanoseconds: MonotonicClock.nanoseconds())
    guard
      let sequence = writer.buffer.appendStructural(
        PendingEvent(session: key, event: .sessionStarted(start)))
    else { throw RecorderError.closed(path: path) }
    return PendingSession(key: key, metadata: metadata, start: start, sequence: sequence)
  }

  private func session(for pending: PendingSession, finished: Bool) throws -> RecordingSession {
    guard finished else {
      throw RecorderError.timedOut(
        operation: "start a session", path: path, limit: options.waitTimeout, cause: nil)
    }
    switch writer.sessionRow(pending.key) {
    case .success(let rowID):
      return RecordingSession(
        recorder: self, key: pending.key, rowID: rowID, metadata: pending.metadata,
        context: pending.start.context, test: pending.start.test,
        durability: pending.start.durability)
    case .failure(let error):
      throw error
    case nil:
      throw RecorderError.closed(path: path)
    }
  }
}
