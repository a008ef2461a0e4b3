import SleeveQuery

/// Where `sleeve lint` gets its report: the analysis (`QueryDatabase.lint(filter:options:)`),
/// or, in a test, a report the test made (``override``), so the command's outputs and exit
/// codes are tested apart from the analysis.
enum LintEngine {
  /// A test's report in place of the analysis; `nil` (always, outside tests): the analysis.
  @TaskLocal static var override: (@Sendable (QueryFilter, LintOptions) -> LintReport)?

  /// The report for `filter` with `options`, read inside the caller's snapshot.
  ///
  /// - Throws: `QueryError` as the analysis does (`sessionNotFound` for an empty selection).
  static func report(_ database: QueryDatabase, filter: QueryFilter, options: LintOptions) throws
    -> LintReport
  {
    if let override { return override(filter, options) }
    return try database.lint(filter: filter, options: options)
  }
}
