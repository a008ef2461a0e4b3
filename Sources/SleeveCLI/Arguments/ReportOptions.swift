/// The options of `sleeve report` that only it takes, declared once: its own `--format`
/// (markdown, json or html; its completion offers them) and `--out`.
enum ReportOptions {
  /// `--format markdown|json|html`.
  static let format = Option<ReportCommand.Format>(
    "format", value: "format", help: "markdown (default), json or html.")
  /// `--out <file>`.
  static let out = SharedOptions.out(help: "Write the report to a file instead of stdout.")
}
