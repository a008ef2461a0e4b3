import SleeveStore

/// A Sleeve file (scratch, 0600 in a 0700 directory, removed when the value is released) that
/// the query side reads in place of a history, so every answer from a history is the answer
/// the same sessions give from a file, by construction.
///
/// Two shapes:
/// - ``whole(_:)``: every session of the history (what `--db URL` reads);
/// - ``beside(local:history:)``: a copy of a local file (its numbers kept, raw rows and all)
///   and, numbered after its last session, the heads of the history's sessions (what
///   `--history URL` reads); ``loadBodies(of:)`` then copies the bodies of the history
///   sessions a baseline selected, so a gate reads what its baseline needs, not the history.
///
/// ```swift
/// let mirror = try HistoryMirror.beside(local: "sleeve.sqlite", history: location)
/// // select the baseline among mirror.historySessions, then:
/// try mirror.loadBodies(of: baselineIDs)
/// ```
public final class HistoryMirror {
  /// The scratch file's path: open it with the query side.
  public var path: String { scratch.path }
  /// The numbers of the local file's sessions (empty for ``whole(_:)``): 1 through the
  /// local file's last session number.
  public let localSessions: ClosedRange<Int64>?
  /// The numbers the history's sessions have in the scratch file: those after the local
  /// file's, and those of the local file's sessions the history holds too (by UUID), which
  /// the scratch file holds once, as the local file has them. Ranges, oldest first.
  public let historySessions: [ClosedRange<Int64>]
  private let scratch: ScratchDatabase
  private let reader: HistoryReader
  private let offset: Int64

  private init(
    scratch: ScratchDatabase, reader: HistoryReader, offset: Int64,
    localSessions: ClosedRange<Int64>?, published: [Int64] = []
  ) {
    (self.scratch, self.reader, self.offset, self.localSessions) =
      (scratch, reader, offset, localSessions)
    let (first, overflow) = offset.addingReportingOverflow(1)
    historySessions =
      Self.ranges(of: published) + [overflow ? Int64.max...Int64.max : first...Int64.max]
  }

  /// `numbers` as the fewest ranges, ascending.
  static func ranges(of numbers: [Int64]) -> [ClosedRange<Int64>] {
    var ranges: [ClosedRange<Int64>] = []
    for number in numbers.sorted() {
      if let last = ranges.last, last.upperBound < Int64.max, last.upperBound + 1 >= number {
        ranges[ranges.count - 1] = last.lowerBound...max(last.upperBound, number)
      } else {
        ranges.append(number...number)
      }
    }
    return ranges
  }

  /// Every session of the history at `location`, heads and bodies.
  ///
  /// - Throws: `HistoryError` for the server's failures, `SQLiteError` for the scratch file's.
  public static func whole(_ location: HistoryLocation) throws -> HistoryMirror {
    let reader = try HistoryReader(location)
    let scratch = try ScratchDatabase(purpose: "history")
    let file = try SleeveDatabase.openForWriting(path: scratch.path)
    let ids = try reader.copyHeads(into: file, offset: 0, flagEvents: true)
    try reader.copyBodies(of: ids, into: file, offset: 0, flagEvents: false)
    return HistoryMirror(scratch: scratch, reader: reader, offset: 0, localSessions: nil)
  }

  /// A copy of the Sleeve file at `local` (read, never written: `VACUUM INTO` a scratch
  /// file) with the heads of the history's sessions after it, but those whose UUIDs the
  /// local file holds (a session published from this file is answered from its raw rows).
  ///
  /// - Throws: `StoreError` and `SQLiteError` for the local file, `HistoryError` for the
  ///   server's failures.
  public static func beside(local: String, history location: HistoryLocation) throws
    -> HistoryMirror
  {
    let reader = try HistoryReader(location)
    let scratch = try ScratchDatabase(purpose: "history")
    try ScratchDatabase.createPrivateFile(at: scratch.path)
    let source = try SleeveDatabase.openForReading(path: local)
    let copy = try source.prepare("VACUUM INTO ?")
    try copy.bind(scratch.path, at: 1)
    try copy.run()
    let file = try SleeveDatabase.openForWriting(path: scratch.path)
    let last = try file.scalarInt("SELECT coalesce(max(id), 0) FROM sessions") ?? 0
    let uuids = try Self.uuids(in: file)
    var published: [Int64] = []
    try reader.copyHeads(into: file, offset: last, flagEvents: true, excluding: Set(uuids.keys)) {
      if let number = uuids[$0] { published.append(number) }
    }
    return HistoryMirror(
      scratch: scratch, reader: reader, offset: last,
      localSessions: last >= 1 ? 1...last : nil, published: published)
  }

  /// Copies the bodies (controls, handlers, flags, summaries) of `sessions`, numbers in the
  /// scratch file; the local file's own sessions among them are left as they are.
  ///
  /// - Throws: What ``HistoryReader/copyBodies(of:into:offset:flagEvents:)`` throws.
  public func loadBodies(of sessions: [Int64]) throws {
    let fromHistory = sessions.filter { $0 > offset }
    guard !fromHistory.isEmpty else { return }
    let file = try SleeveDatabase.openForWriting(path: scratch.path)
    try reader.copyBodies(of: fromHistory, into: file, offset: offset, flagEvents: false)
  }

  /// The file's sessions: their numbers by lowercased UUID.
  private static func uuids(in file: Connection) throws -> [String: Int64] {
    let rows = try file.prepare("SELECT uuid, id FROM sessions")
    var uuids: [String: Int64] = [:]
    while try rows.step() { uuids[(rows.text(at: 0) ?? "").lowercased()] = rows.int64(at: 1) }
    return uuids
  }
}

@available(*, unavailable)
extension HistoryMirror: Sendable {}
