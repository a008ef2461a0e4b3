import Dispatch
import Foundation
import SleeveCore
import SleeveStore

#if canImport(Glibc)
  import Glibc
#endif

/// The background writer: one thread that owns the connection and drains the buffer in
/// batches until the recorder closes.
///
/// The non-`Sendable` state, the `BatchWriter` (connection, statements, session table), is
/// created on the writer thread and never leaves it: it is a local of `run()`. Everything
/// shared with other threads is the `EventBuffer` and `results`, both guarded by `Locked`.
final class Writer: Sendable {
  let buffer: EventBuffer
  /// The stages of this recorder's sessions (records kept between fires).
  let staged = StagedSessions()
  let path: String
  /// How long anything waits for this writer (`RecorderOptions.waitTimeout`).
  var waitTimeout: Duration { options.waitTimeout }
  private let options: RecorderOptions
  private let started = DispatchSemaphore(value: 0)
  private let stopped = DispatchSemaphore(value: 0)
  private let results = Locked(Results())

  private struct Results {
    var openError: RecorderError?
    var rowIDs: [SessionKey: Int64] = [:]
    var failures: [SessionKey: RecorderError] = [:]
    var writeFailures: [SessionKey: WriteFailure] = [:]
    var endFailures: [SessionKey: RecorderError] = [:]
    var lastTimeoutError: SQLiteError?
  }

  /// The error of the last batch given up because a deadline came first.
  var lastTimeoutError: SQLiteError? { results.withLock { $0.lastTimeoutError } }

  /// A session's failed writes so far.
  struct WriteFailure: Sendable {
    let failedEvents: Int
    let lastError: String
  }

  /// The session's failed writes, or `nil` when every write succeeded.
  func failure(of key: SessionKey) -> WriteFailure? {
    results.withLock { $0.writeFailures[key] }
  }

  /// Why the session's end could not be written, if it could not.
  func endFailure(of key: SessionKey) -> RecorderError? {
    results.withLock { $0.endFailures[key] }
  }

  /// Starts the thread and waits until it has opened (and migrated) the database.
  /// - Throws: `RecorderError` when the file cannot be opened as a Sleeve database.
  init(path: String, options: RecorderOptions) throws {
    self.path = path
    self.options = options
    self.buffer = EventBuffer(
      capacity: options.bufferCapacity, flushCount: options.flushCount,
      whenFull: options.whenFull, waitTimeout: options.waitTimeout)
    let thread = Thread { [self] in run() }
    thread.name = "sleeve.writer"
    thread.start()
    started.wait()
    if let error = results.withLock({ $0.openError }) { throw error }
  }

  /// The row id of a committed session, or its start failure.
  func sessionRow(_ key: SessionKey) -> Result<Int64, RecorderError>? {
    results.withLock { results in
      if let error = results.failures[key] { return .failure(error) }
      return results.rowIDs[key].map { .success($0) }
    }
  }

  /// Stops accepting events without waiting: the writer drains what it has on its own thread
  /// and unregisters from `ExitFlush` when it has stopped.
  func beginClosing() {
    buffer.close()
  }

  /// Stops accepting events, lets the writer drain what it has (closing the connection, which
  /// checkpoints the file), and waits for it to stop, up to `timeout`.
  /// - Returns: Whether the writer stopped in time (it goes on in the background otherwise).
  @discardableResult
  func close(timeout: Duration) -> Bool {
    buffer.close()
    guard stopped.wait(timeout: .now() + timeout.dispatchInterval) == .success else {
      return false
    }
    stopped.signal()  // Stays signalled: a later close returns at once.
    return true
  }

  private func run() {
    // The batch writer (and so the connection) lives only inside `drain`: it is closed, and
    // the file checkpointed, before `stopped` lets `close()` return.
    if let batchWriter = openBatchWriter() {
      started.signal()
      drain(with: batchWriter)
    } else {
      started.signal()
    }
    buffer.releaseAll()
    stopped.signal()
    ExitFlush.unregister(self)
  }

  private func openBatchWriter() -> BatchWriter? {
    do {
      try DatabaseFile.prepareForWriting(path, mode: options.fileMode)
      let connection = try SleeveDatabase.openForWriting(
        path: path, busyTimeout: options.effectiveBusyTimeout)
      for pragma in options.pragmas { try connection.execute("PRAGMA " + pragma) }
      return try BatchWriter(connection: connection)
    } catch let error as StoreError {
      results.withLock { $0.openError = .store(error) }
    } catch let error as SQLiteError {
      results.withLock { $0.openError = .sqlite(error, path: path) }
    } catch {
      results.withLock {
        $0.openError = .sqlite(SQLiteError(code: 1, message: "\(error)"), path: path)
      }
    }
    return nil
  }

  private func drain(with batchWriter: BatchWriter) {
    var batch = Batch()
    let identity = FileIdentity(path: path)
    while true {
      let (last, closed) = buffer.takeBatch(into: &batch, waitingUpTo: options.flushInterval)
      // Records sessions keep staged between fires come in the next round.
      staged.requestHandOver()
      // A file deleted or replaced under the recorder is let go at once, and for good:
      // writing on would lose the events silently (deleted) or reach the new file's -wal.
      if !batchWriter.isAbandoned, FileIdentity(path: path) != identity {
        batchWriter.abandonFile()
      }
      var timedOut = false
      if batch.isEmpty {
        batchWriter.heartbeat(dropped: buffer.droppedCount(for:))
      } else {
        // Once the file is abandoned, events are counted as failed, and the error says why.
        let failure: Failure?
        if batchWriter.isAbandoned {
          failure = Failure(error: batchWriter.fail(batch, error: Self.replacedError))
        } else {
          failure = write(batch, with: batchWriter, closing: closed)
        }
        if failure != nil { buffer.seams.batchGivenUp() }
        timedOut = failure?.timedOut ?? false
        if timedOut, let failure { results.withLock { $0.lastTimeoutError = failure.error } }
        publishSessionStarts(in: batch, failure: failure, writer: batchWriter)
        publishFailures(in: batch, failure: failure, writer: batchWriter)
        if let failure {
          options.onWriteError?(
            .writeFailed(failure.error, path: path, lostEvents: batch.count))
        }
        batch.removeAll()
      }
      buffer.markFinished(last, timedOut: timedOut)
      if closed && buffer.lastAccepted == last { return }
    }
  }

  /// Why a batch was given up: the last attempt's error, and whether it was given up because
  /// a deadline came before another process let go of the lock.
  struct Failure {
    let error: SQLiteError
    var timedOut = false
  }

  /// Writes a batch; a lock held by another process (busy, locked) is transient, so the batch
  /// is tried again (each attempt waits up to the busy timeout), each wait reported, until
  /// the next attempt could end past the deadline: ``RecorderOptions/retryTimeout`` from the
  /// first attempt, or sooner when a call waiting on the writer would time out sooner. Once
  /// the recorder is closing, at most three more attempts. Any other failure gives the batch
  /// up at once, and so does a waiter that left without a verdict on events up to this batch
  /// (``EventBuffer/mustGiveUp``), before any attempt: a wait that timed out is final. A batch
  /// given up is counted as failed on its sessions.
  private func write(_ batch: Batch, with batchWriter: BatchWriter, closing: Bool) -> Failure? {
    let ownDeadline =
      DispatchTime.now() + max(options.retryTimeout, options.waitTimeout).dispatchInterval
    let attempt = options.effectiveBusyTimeout
    // Room for the give-up itself after the last attempt, so a waiter hears it in time.
    let margin = max(attempt / 4, .milliseconds(10))
    var attempts = 0
    var timedOut = false
    var error: SQLiteError?
    if buffer.mustGiveUp {
      error = Self.abandonedError
      timedOut = true
    } else {
      error = batchWriter.write(batch, dropped: buffer.droppedCount(for:))
    }
    while !timedOut, let failure = error, Self.isTransient(failure) {
      buffer.seams.attemptFailed()
      if (closing || buffer.isClosed) && attempts >= 3 { break }
      let deadline = min(ownDeadline, buffer.earliestDeadline() ?? ownDeadline)
      if buffer.mustGiveUp || DispatchTime.now() + (attempt + margin).dispatchInterval > deadline {
        timedOut = true
        break
      }
      attempts += 1
      options.onWriteError?(.writeRetrying(failure, path: path, attempt: attempts))
      error = batchWriter.write(batch, dropped: buffer.droppedCount(for:))
    }
    guard let error else { return nil }
    batchWriter.giveUp(batch, error: error, dropped: buffer.droppedCount(for:))
    return Failure(error: error, timedOut: timedOut)
  }

  static func isTransient(_ error: SQLiteError) -> Bool {
    error.primaryCode == SQLiteError.busy || error.primaryCode == SQLiteError.locked
  }

  /// Why a batch was given up without an attempt: a call waiting on it left without a verdict
  /// (SQLite's own code for a busy wait that timed out, `SQLITE_BUSY_TIMEOUT`).
  static let abandonedError = SQLiteError(
    code: RecorderError.timeoutCode,
    message: "a call waiting on these events returned past its wait timeout before they could "
      + "be written; they are counted as failed")

  static let replacedError = SQLiteError(
    code: 10,
    message: "the database file was deleted or replaced while recording; events are not "
      + "written (start a new Recorder to record into the new file)")

  /// What a call waiting on a batch given up by `failure` is told.
  private func callerError(_ failure: Failure, operation: String) -> RecorderError {
    failure.timedOut
      ? .timedOut(
        operation: operation, path: path, limit: options.waitTimeout, cause: failure.error)
      : .sqlite(failure.error, path: path)
  }

  private func publishFailures(
    in batch: Batch, failure: Failure?, writer: BatchWriter
  ) {
    guard let failure else { return }
    let ends = batch.structural.compactMap { pending -> SessionKey? in
      if case .sessionEnded = pending.event { pending.session } else { nil }
    }
    results.withLock { results in
      for (key, session) in writer.sessions where session.failedEvents > 0 {
        results.writeFailures[key] = WriteFailure(
          failedEvents: session.failedEvents,
          lastError: session.lastError ?? "\(failure.error)")
      }
      for key in ends {
        results.endFailures[key] = callerError(failure, operation: "end the session")
      }
    }
  }

  private func publishSessionStarts(
    in batch: Batch, failure: Failure?, writer: BatchWriter
  ) {
    let starts = batch.structural.compactMap { pending -> SessionKey? in
      if case .sessionStarted = pending.event { pending.session } else { nil }
    }
    guard !starts.isEmpty else { return }
    results.withLock { results in
      for key in starts {
        if let failure {
          results.failures[key] = callerError(failure, operation: "start a session")
        } else if writer.rowID(of: key) == 0 {
          results.failures[key] = .store(.noSessionIDsLeft(path: path))  // see BatchWriter.apply
        } else {
          results.rowIDs[key] = writer.rowID(of: key)
        }
      }
    }
  }
}
