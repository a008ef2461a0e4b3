/// A recorded commit id as outputs show it.
public enum CommitID {
  /// The first 12 Unicode scalars of `commit`, as `git log --oneline` shortens ids: scalars,
  /// never `Character`s, whose combining marks are unbounded.
  public static func short(_ commit: String) -> String {
    String(String.UnicodeScalarView(commit.unicodeScalars.prefix(12)))
  }
}
