import SleeveStore

/// A `CIReport` as JUnit XML, the test report GitLab, Jenkins, Azure Pipelines and GitHub's
/// test reporters read.
///
/// ```xml
/// <?xml version="1.0" encoding="UTF-8"?>
/// <testsuites name="…title…" tests="3" failures="1" errors="0" skipped="1" time="0">
///   <testsuite name="sleeve diff" tests="3" failures="1" errors="0" skipped="1" time="0"
///       timestamp="2026-12-01T12:00:00">
///     <properties><property name="summary" value="…summary…"/></properties>
///     <testcase classname="CheckoutView" name="submit: error rate" time="0"
///         file="Sources/App/CheckoutView.swift" line="42">
///       <failure message="…" type="failed">…evidence…</failure>
///     </testcase>
///     <testcase …><skipped message="…"/><system-out>…evidence…</system-out></testcase>
///     <testcase …><system-out>…evidence…</system-out></testcase>
///   </testsuite>
/// </testsuites>
/// ```
///
/// - One `<testsuite>` per distinct `suite`, in order of first appearance (one, named after
///   the title, when there are no checks); one `<testcase>` per check, in order.
/// - GitLab shows `classname` as the suite and `name` as the test; `file` and `line` (which
///   GitLab and others read) are given when the registration site is known.
/// - A failed check has a `<failure>` whose body is the evidence; an advisory one a
///   `<skipped message=…>` and the evidence in `<system-out>`; a passed one only the evidence;
///   a notice passes, its message then its evidence in `<system-out>`.
/// - `time` is 0: a check is a judgement, not a timed run. `timestamp` is the time given, in
///   UTC, as ISO 8601 without a zone designator (the form the Ant schema Jenkins follows asks).
/// - Bounded whatever the strings hold: names, the title and file paths are capped at 1,024
///   UTF-8 bytes, messages and the summary at 4,096, evidence at 64 KiB, each cut at a scalar
///   boundary with `… [truncated]` (`RecordedText`, the limits recorded text has), so no
///   reader's size limit (libxml2 refuses 10 MB without its "huge" option) is reached.
/// - Always well-formed XML 1.0 whatever the strings hold: every text goes through
///   `MarkupText` (attributes on one line, bodies with their line feeds), which escapes the
///   five markup characters and shows controls and the noncharacters U+FFFE and U+FFFF
///   visibly. No CDATA section is used, so `]]>` is plain text.
///
/// Validated against `Tests/SleeveCLITests/Schemas/junit.xsd` with `xmllint` in the tests.
enum JUnitXML {
  /// The most bytes of a check's evidence the report holds.
  static let evidenceLimit = RecordedText.Limit(bytes: 65_536)

  /// The report as a JUnit XML document, ending with a line feed.
  ///
  /// - Parameter timestamp: When the report was made, in nanoseconds since the Unix epoch;
  ///   no `timestamp` attribute when `nil`.
  static func render(_ report: CIReport, timestamp: Int64? = nil) -> String {
    var suites: [(name: String, checks: [CICheck])] = []
    var index: [String: Int] = [:]
    for check in report.checks {
      if let position = index[check.suite] {
        suites[position].checks.append(check)
      } else {
        index[check.suite] = suites.count
        suites.append((check.suite, [check]))
      }
    }
    if suites.isEmpty { suites = [(report.title, [])] }
    let stamp = timestamp.map { String(UTCTimestamp.iso8601(unixNanoseconds: $0).prefix(19)) }

    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out += "<testsuites" + attribute("name", report.title) + counts(report.checks) + ">\n"
    for suite in suites {
      out += "  <testsuite" + attribute("name", suite.name) + counts(suite.checks)
      if let stamp { out += attribute("timestamp", stamp) }
      out += ">\n"
      out += "    <properties>\n"
      out +=
        "      <property" + attribute("name", "summary")
        + attribute("value", report.summary, limit: .message) + "/>\n"
      out += "    </properties>\n"
      for check in suite.checks { out += testcase(check) }
      out += "  </testsuite>\n"
    }
    out += "</testsuites>\n"
    return out
  }

  /// One `<testcase>` element, indented, ending with a line feed.
  private static func testcase(_ check: CICheck) -> String {
    var out =
      "    <testcase" + attribute("classname", check.className)
      + attribute("name", check.name) + attribute("time", "0")
    if let site = check.site, !site.file.isEmpty {
      out += attribute("file", site.file)
      if let line = site.knownLine { out += attribute("line", String(line)) }
    }
    let evidence = MarkupText.escapedKeepingLineBreaks(
      RecordedText.capped(check.evidence.joined(separator: "\n"), to: evidenceLimit))
    switch check.outcome {
    case .passed:
      guard !evidence.isEmpty else { return out + "/>\n" }
      out += ">\n" + systemOut(evidence)
    case .failed(let message):
      out +=
        ">\n      <failure" + attribute("message", message, limit: .message)
        + attribute("type", "failed")
      out += evidence.isEmpty ? "/>\n" : ">" + evidence + "</failure>\n"
    case .advisory(let message):
      out += ">\n      <skipped" + attribute("message", message, limit: .message) + "/>\n"
      if !evidence.isEmpty { out += systemOut(evidence) }
    case .notice(let message):
      let body = MarkupText.escapedKeepingLineBreaks(
        RecordedText.capped(message, to: .message))
      out += ">\n" + systemOut(evidence.isEmpty ? body : body + "\n" + evidence)
    }
    return out + "    </testcase>\n"
  }

  private static func systemOut(_ escapedText: String) -> String {
    "      <system-out>" + escapedText + "</system-out>\n"
  }

  /// `tests`, `failures`, `errors`, `skipped` and `time` of `checks`.
  private static func counts(_ checks: [CICheck]) -> String {
    var failures = 0
    var skipped = 0
    for check in checks {
      switch check.outcome {
      case .passed, .notice: break
      case .failed: failures += 1
      case .advisory: skipped += 1
      }
    }
    return attribute("tests", String(checks.count)) + attribute("failures", String(failures))
      + attribute("errors", "0") + attribute("skipped", String(skipped)) + attribute("time", "0")
  }

  /// ` name="value"`, the value capped at `limit` and escaped on one line.
  private static func attribute(
    _ name: String, _ value: String, limit: RecordedText.Limit = .name
  ) -> String {
    " " + name + "=\"" + MarkupText.escaped(RecordedText.capped(value, to: limit)) + "\""
  }
}
