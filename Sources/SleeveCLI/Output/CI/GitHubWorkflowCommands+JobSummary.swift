extension GitHubWorkflowCommands {
  /// The variable GitHub Actions sets to the step's summary file.
  static let stepSummaryVariable = "GITHUB_STEP_SUMMARY"

  /// Appends the report's Markdown summary to the file `$GITHUB_STEP_SUMMARY` names, when it is
  /// set and not empty (the environment is passed in, never read globally).
  ///
  /// Only appends, and only to a regular file (`OutputFile(appendingTo:protecting:)`): existing
  /// content is never truncated or rewritten; a missing file is created 0600; a FIFO, device,
  /// directory, dangling link or SQLite file is refused at once (no hang). The text is fitted to
  /// GitHub's 1 MiB per step (`StepSummaryText`): cut with a note, or not written when the file
  /// is already full, and the returned value says which, so the caller can warn on standard
  /// error (`JobSummaryWrite.warning`).
  ///
  /// - Parameter protected: Files that must never be written (the command's database).
  /// - Throws: `OutputFileError`: `.refused` (exit 64) for a path that must not be written,
  ///   `.cannotWrite` (exit 74) when writing fails.
  @discardableResult
  static func appendJobSummary(
    _ report: CIReport, environment: [String: String], protecting protected: [String] = []
  ) throws(OutputFileError) -> JobSummaryWrite {
    guard let path = environment[stepSummaryVariable], !path.isEmpty else { return .notRequested }
    let file = try OutputFile(appendingTo: path, protecting: protected)
    guard let fitted = StepSummaryText.fitted(report.markdownSummary, existing: file.sizeWhenOpened)
    else {
      try file.finish()
      return .noRoom(path: path, existingBytes: file.sizeWhenOpened)
    }
    try file.write(fitted.text)
    try file.finish()
    let written = fitted.text.utf8.count
    return fitted.isCut
      ? .cut(path: path, bytes: written, summaryBytes: report.markdownSummary.utf8.count)
      : .appended(path: path, bytes: written)
  }
}

/// What `GitHubWorkflowCommands.appendJobSummary` did with the summary.
enum JobSummaryWrite: Equatable, Sendable {
  /// `$GITHUB_STEP_SUMMARY` is not set (or empty): nothing was written.
  case notRequested
  /// The whole summary was appended (`bytes` with the separating line feed).
  case appended(path: String, bytes: Int)
  /// The summary did not fit in GitHub's 1 MiB: `bytes` were appended, ending with a note that
  /// says so, out of a summary of `summaryBytes`.
  case cut(path: String, bytes: Int, summaryBytes: Int)
  /// The file already held `existingBytes`, too close to 1 MiB for even the note: nothing was
  /// appended.
  case noRoom(path: String, existingBytes: Int)

  /// One line for standard error when the summary was cut or not written; `nil` otherwise.
  var warning: String? {
    switch self {
    case .notRequested, .appended: nil
    case .cut(let path, _, let total):
      "the job summary (\(total) bytes) was cut to fit GitHub's 1 MiB step summary in '\(path)'"
    case .noRoom(let path, let existing):
      "the job summary was not written: '\(path)' already holds \(existing) bytes, and GitHub "
        + "keeps a step summary only up to 1 MiB"
    }
  }
}
