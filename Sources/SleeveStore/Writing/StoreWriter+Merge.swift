/// The merge write: sessions of other databases copied into this one.
extension StoreWriter {
  /// Copies every ended session of the database at `path` (and unterminated ones when asked)
  /// that this file does not have yet, each in one transaction
  /// (``SessionMerger/merge(path:includeUnterminated:progress:)``).
  public func merge(
    path: String, includeUnterminated: Bool,
    progress: (SessionMerger.Progress) -> Void = { _ in }
  ) throws -> SessionMerger.Report {
    try SessionMerger(target: connection).merge(
      path: path, includeUnterminated: includeUnterminated, progress: progress)
  }
}
