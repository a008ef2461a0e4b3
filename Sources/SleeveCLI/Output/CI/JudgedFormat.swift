import Foundation
import SleeveStore

/// The formats of the commands that judge (`diff`, `check`, `flaky`): the shared four, and
/// the two that CI systems read.
enum JudgedFormat: String, CaseIterable, Sendable {
  case table, json, csv, markdown
  /// JUnit XML on standard output: one testcase per check (`JUnitXML`).
  case junit
  /// GitHub workflow commands on standard output, one annotation per check that did not pass,
  /// and the Markdown summary appended to `$GITHUB_STEP_SUMMARY` when it is set.
  case github

  /// `--format`, typed: its completion offers every case.
  static let formatOption = Option<JudgedFormat>(
    "format", value: "format",
    help: "Output: table, json, csv, markdown, junit or github (default: table).")

  /// The option, as the judging commands list it.
  static let option = formatOption.spec

  /// The shared format this is, or `nil` for a CI format.
  var shared: OutputFormat? { OutputFormat(rawValue: rawValue) }

  /// Parses `--format` and sets the context's shared format (a CI format leaves `table`, so
  /// tables are never coloured for CI).
  static func parse(_ arguments: ParsedArguments, context: inout CommandContext) throws
    -> JudgedFormat
  {
    let format = try context.value(formatOption, in: arguments) ?? .table
    context.format = format.shared ?? .table
    return format
  }

  /// The CI format this is, or `nil` for a shared one.
  var ci: CIFormat? {
    switch self {
    case .junit: .junit
    case .github: .github
    case .table, .json, .csv, .markdown: nil
    }
  }
}

/// The formats CI systems read.
enum CIFormat: Sendable {
  case junit, github

  /// Writes `report`: JUnit XML, or workflow commands plus the job summary (a summary that had
  /// to be cut, or found no room, is said on standard error).
  func emit(_ report: CIReport, context: CommandContext) throws {
    switch self {
    case .junit:
      context.console.out(JUnitXML.render(report, timestamp: WallClock.unixNanoseconds()))
    case .github:
      // Each handler has several checks at one site: each file is looked for once.
      var report = report
      var found: [String: SourceSite] = [:]
      for index in report.checks.indices {
        guard let site = report.checks[index].site else { continue }
        let resolved = found[site.file] ?? Self.repositoryPath(SourceSite(file: site.file))
        found[site.file] = resolved
        report.checks[index].site = SourceSite(file: resolved.file, line: site.line)
      }
      context.console.out(GitHubWorkflowCommands.annotations(report))
      let written = try GitHubWorkflowCommands.appendJobSummary(
        report, environment: context.console.environment, protecting: [context.databasePath])
      if let warning = written.warning {
        context.console.error("Warning: \(TerminalText.escaped(warning))\n")
      }
    }
  }

  /// A recorded site names its file as Swift's `#fileID` does (`Module/File.swift`); GitHub
  /// attaches an annotation to a diff line only by the file's path in the repository. So
  /// where SwiftPM's layout holds exactly one such file under `Sources/Module` or
  /// `Tests/Module` of the working directory (searched to at most 10,000 entries, symbolic
  /// links not followed), that path is used; otherwise the site as recorded.
  static func repositoryPath(_ site: SourceSite) -> SourceSite {
    let parts = site.file.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, parts[0] != "..",
      parts[0] != "."
    else { return site }
    var found: [String] = []
    for root in ["Sources", "Tests"] {
      let module = root + "/" + parts[0]
      guard
        let walk = FileManager.default.enumerator(
          at: URL(fileURLWithPath: module), includingPropertiesForKeys: [.isRegularFileKey],
          options: [.skipsHiddenFiles])
      else { continue }
      var seen = 0
      while let url = walk.nextObject() as? URL, seen < 10_000 {
        seen += 1
        guard url.lastPathComponent == String(parts[1]),
          (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
          let relative = url.path.range(of: "/" + module + "/")
        else { continue }
        found.append(module + "/" + url.path[relative.upperBound...])
      }
    }
    return found.count == 1 ? SourceSite(file: found[0], line: site.line) : site
  }
}
