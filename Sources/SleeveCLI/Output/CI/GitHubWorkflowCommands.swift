import SleeveStore

/// A `CIReport` as GitHub Actions shows it: workflow-command annotations on standard output,
/// and the Markdown job summary appended to `$GITHUB_STEP_SUMMARY`.
///
/// Each check that did not pass becomes one line, `::error` for a failure, `::warning` for an
/// advisory check and `::notice` for a notice, with `file=` and `line=` at the handler's
/// registration site when known and `title=` naming the check; the message is the outcome's
/// message, a blank line, then the evidence, one annotation line each (a line break recorded
/// inside one, an error message's, shows as the visible `\n`, never as a line of its own). A `::notice` with the report's summary ends the
/// output. Every value is escaped by `WorkflowCommandText`, so the output holds exactly these
/// lines and no recorded text can start another command.
///
/// GitHub's limits, which the output states rather than hides:
/// - a runner keeps 4,096 characters of an annotation's message: a longer one is cut here, at a
///   scalar boundary, and ends with a marker saying so; a title is cut at 255 (the Checks API's
///   limit) with `…`, and a file path at 1,024 bytes (`RecordedText`'s limit for names);
/// - a step shows 10 annotations of each kind (the rest only in the log): past that, the notice
///   says how many more are in the log and in the job summary;
/// - a step summary holds 1 MiB: see `appendJobSummary(_:environment:protecting:)`.
enum GitHubWorkflowCommands {
  /// The characters of a message a runner keeps (`_maxIssueMessageLength` in actions/runner).
  static let messageLimit = 4_096
  /// The characters of an annotation's title GitHub keeps (the Checks API's limit).
  static let titleLimit = 255
  /// The annotations of one kind (error, warning, notice) a step shows.
  static let annotationsPerKind = 10
  /// What ends a message cut at `messageLimit`.
  static let cutMarker = "\n… (cut: GitHub keeps 4,096 characters of an annotation)"

  /// The annotation lines for standard output: one per check that did not pass (`::error`,
  /// `::warning` or `::notice`, with `file=`, `line=` and `title=`), then a `::notice` with the
  /// summary. Each line ends with a line feed.
  static func annotations(_ report: CIReport) -> String {
    var out = ""
    var errors = 0
    var warnings = 0
    var notices = 0
    for check in report.checks {
      let command: String
      let message: String
      switch check.outcome {
      case .passed: continue
      case .failed(let text):
        (command, message) = ("error", text)
        errors += 1
      case .advisory(let text):
        (command, message) = ("warning", text)
        warnings += 1
      case .notice(let text):
        (command, message) = ("notice", text)
        notices += 1
      }
      var properties: [String] = []
      if let site = check.site, !site.file.isEmpty {
        let file = RecordedText.capped(site.file, to: .name)
        properties.append("file=" + WorkflowCommandText.property(file))
        if let line = site.knownLine { properties.append("line=\(line)") }
      }
      let title = check.suite + ": " + check.className + " · " + check.name
      properties.append("title=" + WorkflowCommandText.property(title, limit: titleLimit))
      let body = [message] + (check.evidence.isEmpty ? [] : [""] + check.evidence)
      out +=
        "::\(command) " + properties.joined(separator: ",") + "::"
        + WorkflowCommandText.data(body, limit: messageLimit, marker: cutMarker) + "\n"
    }
    var summary = [report.summary]
    // The summary is a notice too: with the checks' notices it may pass the step's ten.
    let hidden =
      max(errors - annotationsPerKind, 0) + max(warnings - annotationsPerKind, 0)
      + max(notices + 1 - annotationsPerKind, 0)
    if hidden > 0 {
      summary.append(
        "GitHub shows \(annotationsPerKind) annotations of each kind per step: "
          + "\(hidden) more \(hidden == 1 ? "is" : "are") in this log and in the job summary.")
    }
    out +=
      "::notice title=" + WorkflowCommandText.property(report.title, limit: titleLimit) + "::"
      + WorkflowCommandText.data(summary, limit: messageLimit, marker: cutMarker) + "\n"
    return out
  }
}
