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
/// shared with other threads is the `EventBuffer` and `results`, both guarded by `Mutex`.
final class Writer: Sendable {
  let buffer: EventBuffer
  let path: String
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
  }

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
      whenFull: options.whenFull)
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

  /// Stops accepting events, lets the writer drain what it has, and waits for it to stop.
  func close() {
    buffer.close()
    stopped.wait()
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
  }

  private func openBatchWriter() -> BatchWriter? {
    FileIdentity.createIfMissing(path, mode: mode_t(options.fileMode))
    do {
      let connection = try SleeveDatabase.openForWriting(
        path: path, busyTimeout: options.busyTimeout)
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
      let replaced = FileIdentity(path: path) != identity
      if batch.isEmpty {
        if !replaced { batchWriter.heartbeat(dropped: buffer.droppedCount(for:)) }
      } else {
        // Writing into a file that was deleted or replaced under us would lose the events
        // silently: count them as failed instead, and say so.
        let failure =
          replaced
          ? batchWriter.fail(batch, error: Self.replacedError)
          : write(batch, with: batchWriter, closing: closed)
        publishSessionStarts(in: batch, failure: failure, writer: batchWriter)
        publishFailures(in: batch, failure: failure, writer: batchWriter)
        if let failure {
          options.onWriteError?(.writeFailed(failure, path: path, lostEvents: batch.count))
        }
        batch.removeAll()
      }
      buffer.markFinished(last)
      if closed && buffer.lastAccepted == last { return }
    }
  }

  /// Writes a batch; a lock held by another process (busy, locked) is transient, so the batch
  /// is retried (each attempt waits out the busy timeout) rather than lost, and each wait is
  /// reported. Once the recorder is closing, three more attempts are made before giving up.
  /// Any other failure gives the batch up at once, counted.
  private func write(_ batch: Batch, with batchWriter: BatchWriter, closing: Bool) -> SQLiteError? {
    var attempts = 0
    var failure = batchWriter.write(batch, dropped: buffer.droppedCount(for:))
    while let error = failure, Self.isTransient(error),
      !(closing || buffer.isClosed) || attempts < 3
    {
      attempts += 1
      options.onWriteError?(.writeRetrying(error, path: path, attempt: attempts))
      failure = batchWriter.write(batch, dropped: buffer.droppedCount(for:))
    }
    if let failure {
      batchWriter.giveUp(batch, error: failure, dropped: buffer.droppedCount(for:))
    }
    return failure
  }

  private static func isTransient(_ error: SQLiteError) -> Bool {
    error.primaryCode == SQLiteError.busy || error.primaryCode == SQLiteError.locked
  }

  static let replacedError = SQLiteError(
    code: 10,
    message: "the database file was deleted or replaced while recording; events are not "
      + "written (start a new Recorder to record into the new file)")

  private func publishFailures(
    in batch: Batch, failure: SQLiteError?, writer: BatchWriter
  ) {
    guard let failure else { return }
    let ends = batch.structural.compactMap { pending -> SessionKey? in
      if case .sessionEnded = pending.event { pending.session } else { nil }
    }
    results.withLock { results in
      for (key, session) in writer.sessions where session.failedEvents > 0 {
        results.writeFailures[key] = WriteFailure(
          failedEvents: session.failedEvents, lastError: session.lastError ?? "\(failure)")
      }
      for key in ends { results.endFailures[key] = .sqlite(failure, path: path) }
    }
  }

  private func publishSessionStarts(
    in batch: Batch, failure: SQLiteError?, writer: BatchWriter
  ) {
    let starts = batch.structural.compactMap { pending -> SessionKey? in
      if case .sessionStarted = pending.event { pending.session } else { nil }
    }
    guard !starts.isEmpty else { return }
    results.withLock { results in
      for key in starts {
        if let failure {
          results.failures[key] = .sqlite(failure, path: path)
        } else if writer.rowID(of: key) == 0 {
          results.failures[key] = .store(.noSessionIDsLeft(path: path))  // see BatchWriter.apply
        } else {
          results.rowIDs[key] = writer.rowID(of: key)
        }
      }
    }
  }
}
