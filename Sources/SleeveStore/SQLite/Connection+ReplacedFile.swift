import CSQLite

extension Connection {
  /// Prepares to let go of a database file that was replaced at its path (renamed over,
  /// deleted) while this connection had it open, so that closing touches nothing that now
  /// lives at the path.
  ///
  /// The connection's own write-ahead log is checkpointed into the file it opened and
  /// truncated to zero bytes (`SQLITE_CHECKPOINT_TRUNCATE`), all through the open handles: the
  /// replaced file keeps its data (it may live on under another name), and the `-wal` it
  /// leaves at the path, if that is still its own, holds no frames that a later opener could
  /// apply to the new file. Then `SQLITE_FCNTL_PERSIST_WAL` is set, so closing does not
  /// delete the `-wal` and `-shm` names (which may by now belong to the new file). Close the
  /// connection right after, and run nothing else on it.
  ///
  /// Best effort, never throws: when another connection still reads the old log, the
  /// checkpoint cannot truncate it and it is left as it is.
  ///
  /// See <https://www.sqlite.org/c3ref/wal_checkpoint_v2.html> and
  /// <https://www.sqlite.org/c3ref/c_fcntl_begin_atomic_write.html#sqlitefcntlpersistwal>.
  public func releaseReplacedFile() {
    sqlite3_wal_autocheckpoint(handle, 0)
    var logFrames: Int32 = 0
    var checkpointed: Int32 = 0
    _ = sqlite3_wal_checkpoint_v2(
      handle, "main", SQLITE_CHECKPOINT_TRUNCATE, &logFrames, &checkpointed)
    var persist: Int32 = 1
    _ = sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
  }
}
