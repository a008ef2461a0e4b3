/// How a ``Recorder`` writes: durability, buffering and where write errors go.
public struct RecorderOptions: Sendable {
  /// When recorded events reach the file.
  public enum Durability: String, Sendable {
    /// Events are written in batches by the background writer (on a count or time threshold,
    /// `flush()` and `end()`). A kill loses at most the events of the last `flushInterval`.
    case batched
    /// Every fire's events are committed before `sendActions` returns (and every async
    /// outcome before its task finishes): nothing acknowledged is lost, at the cost of one
    /// transaction per fire.
    case strict
  }

  /// What the firing thread does when the buffer is full.
  public enum WhenFull: String, Sendable {
    /// Wait for the writer to make room (events are never dropped; the UI thread may stall).
    case block
    /// Drop the event and count it on its session (`droppedEvents`, the `dropped_events`
    /// column): never silent, never blocking.
    case drop
  }

  /// The default durability of sessions started by the recorder.
  public var durability: Durability
  /// What to do when the buffer is full.
  public var whenFull: WhenFull
  /// The most events the buffer holds (memory stays bounded by it: about 64 bytes each).
  public var bufferCapacity: Int
  /// The writer wakes when this many events are waiting.
  public var flushCount: Int
  /// The writer wakes at least this often when events are waiting.
  public var flushInterval: Duration
  /// How long one write attempt waits for another process's lock (SQLite's busy timeout). A
  /// batch that meets a held lock is attempted again until ``waitTimeout``; the writer uses at
  /// most half of ``waitTimeout`` here, so every wait below hears the writer's verdict.
  public var busyTimeout: Duration
  /// The longest anything waits for the writer: `startSession` for its row, a strict-mode fire
  /// for its commit, `flush()`, `end()`, and a `block`-policy append for room.
  ///
  /// Past it: `startSession`, `flush()` and `end()` throw (`RecorderError.isTimeout`); a
  /// strict fire returns, its events counted as failed (`session.status`, `failed_events`); a
  /// `block` append drops its event, counted as dropped. The writer gives a batch it cannot
  /// write up (counted as failed) before the earliest deadline of a call waiting on it, so the
  /// call gets that verdict. Once the lock is released the next batch is written: sessions
  /// that started keep recording (a session whose `end()` failed stays unterminated). At least ``minimumWaitTimeout`` (10 ms): smaller values are raised to it.
  public var waitTimeout: Duration {
    didSet { waitTimeout = max(waitTimeout, Self.minimumWaitTimeout) }
  }
  /// The smallest ``waitTimeout``: below it even an unlocked write could not answer in time.
  public static let minimumWaitTimeout = Duration.milliseconds(10)
  /// How long the writer keeps trying a batch against a lock held by another process when no
  /// call waits on it (batched events between flushes); then the batch is given up, counted as
  /// failed, and the writer goes on with the next one. Never shorter than ``waitTimeout``.
  public var retryTimeout: Duration
  /// Extra `PRAGMA` settings for the writer's connection, run after setup and migration, e.g.
  /// `["cache_size = -8000"]` (or `["max_page_count = 64"]` to simulate a full disk).
  public var pragmas: [String]
  /// The permissions of a database file the recorder creates (default `0o600`: owner only).
  /// An existing file keeps its permissions.
  public var fileMode: UInt32
  /// Called on the writer thread for every failed write, with the events it lost, and on the
  /// export's task when a session's export at its end fails (`exportFailed`). Never called
  /// on the firing thread; never throws into a handler.
  public var onWriteError: (@Sendable (RecorderError) -> Void)?
  /// What delivers each session once it has ended (SleeveExport's `OTLPSessionExport`
  /// pushes it to an OTLP/HTTP collector); `nil` (the default): nothing. It runs after the
  /// end is committed, in a detached task; `end()` waits for it at most its `endWait`, and
  /// its outcome is the session's `exportStatus` (a failure also goes to ``onWriteError``).
  public var export: (any SessionExport)?
  /// Where every session of the recorder ran, over what the environment says: each field set
  /// here replaces the one read from the CI variables (and `SLEEVE_COMMIT`/`SLEEVE_BRANCH`);
  /// a session's own `context:` replaces both. Empty by default (the environment decides).
  public var context = RunContext()
  /// The environment the CI context is read from at each session start; `nil` (the default)
  /// reads the process's. Only the variables of the fixed CI table are read from it (README,
  /// "Where a session ran"). Tests pass a fixture; `[:]` records no CI context.
  public var contextEnvironment: [String: String]?

  /// Options with the defaults: batched, drop when full, 65,536 events, flush at 4,096 events
  /// or 100 ms, 5 s busy timeout, 10 s wait timeout, 60 s retry timeout.
  public init(
    durability: Durability = .batched, whenFull: WhenFull = .drop, bufferCapacity: Int = 65_536,
    flushCount: Int = 4_096, flushInterval: Duration = .milliseconds(100),
    busyTimeout: Duration = .seconds(5), waitTimeout: Duration = .seconds(10),
    retryTimeout: Duration = .seconds(60), pragmas: [String] = [], fileMode: UInt32 = 0o600,
    onWriteError: (@Sendable (RecorderError) -> Void)? = nil
  ) {
    self.fileMode = fileMode
    self.pragmas = pragmas
    self.durability = durability
    self.whenFull = whenFull
    self.bufferCapacity = max(bufferCapacity, 16)
    self.flushCount = min(max(flushCount, 1), max(bufferCapacity, 16))
    self.flushInterval = flushInterval
    self.busyTimeout = busyTimeout
    self.waitTimeout = max(waitTimeout, Self.minimumWaitTimeout)
    self.retryTimeout = retryTimeout
    self.onWriteError = onWriteError
  }

  /// The busy timeout the writer's connection uses: ``busyTimeout``, at most half of
  /// ``waitTimeout`` (and never negative).
  var effectiveBusyTimeout: Duration {
    max(min(busyTimeout, waitTimeout / 2), .zero)
  }
}
