/// Which of the selected ended sessions `sleeve prune` takes the raw rows of.
public enum RetentionPolicy: Equatable, Sendable {
  /// Sessions that ended before this time (Unix nanoseconds): `--raw-older-than 30d`.
  case endedBefore(unixNanoseconds: Int64)
  /// Every ended session but the newest `count` by end time (ties: the higher id is newer):
  /// `--keep-last 20`. The newest `count` keep their raw rows whether or not they were
  /// pruned before.
  case keepLast(Int)
}
