import SleeveQuery
import SleeveStore

extension LintCommand {
  /// `sleeve lint suppress <check> <site> --reason <text> [--actor <name>]`.
  static func suppress(
    check: LintCheck, site: String, _ arguments: ParsedArguments, context: CommandContext
  ) throws -> ExitCode {
    guard let reason = arguments.text(of: Self.reason),
      !reason.unicodeScalars.allSatisfy(\.properties.isWhitespace)
    else {
      throw UsageError("Missing value for '--reason <text>': say why", command: spec.name)
    }
    let path = context.databasePath
    // A writer creates a missing file: a mistyped --db must not become a new database.
    guard try DatabaseFile.inspect(path) != .missing else {
      throw QueryError.databaseNotFound(path: path)
    }
    // A mistyped site suppresses nothing: say so, and record it all the same (a later
    // session may register there).
    let known = try LintSuppressionLedger(connection: try SleeveDatabase.openForReading(path: path))
      .knows(site: site)
    let store = try StoreWriter(path: path)
    let actor = SharedOptions.actor(Self.actor, in: arguments, context: context)
    let isNew = try store.suppress(
      LintSuppression(check: check.id, site: site, reason: reason, actor: actor))
    context.console.out(
      TerminalText.escaped(
        (isNew ? "Suppressed" : "Updated the suppression of") + " \(check.id) at '\(site)' ("
          + reason + ")" + (actor.map { ", by \($0)" } ?? "") + ".") + "\n")
    if !known {
      context.console.error(
        TerminalText.escaped(
          "Note: no session in '\(path)' recorded a registration at '\(site)' or a control "
            + "named '\(site)'; name the site as the lint table's site column shows it") + "\n")
    }
    return .success
  }

  /// `sleeve lint unsuppress <check> <site>`: 66 when it is not suppressed.
  static func unsuppress(check: LintCheck, site: String, context: CommandContext) throws
    -> ExitCode
  {
    let entries = try context.openDatabase().lintSuppressions()
    let key = RecordedText.capped(site, to: .name)
    let notSuppressed = {
      let elsewhere = entries.filter { $0.check == check.id }.count
      return LintSuppressionNotFound(
        "\(check.id) is not suppressed at '\(site)'"
          + (elsewhere == 0
            ? "" : "; it is suppressed at \(LintReportText.plural(elsewhere, "other site"))")
          + " (list them with 'sleeve lint suppressions')")
    }
    // Read first, so lifting what is not there never upgrades (or touches) the file.
    guard entries.contains(where: { $0.check == check.id && $0.site == key }) else {
      throw notSuppressed()
    }
    let store = try StoreWriter(path: context.databasePath)
    guard try store.liftSuppression(check: check.id, site: site) else { throw notSuppressed() }
    context.console.out(
      TerminalText.escaped("\(check.id) is no longer suppressed at '\(site)'.") + "\n")
    return .success
  }

  /// `sleeve lint suppressions [--format table|json|csv|markdown]`.
  static func listSuppressions(_ arguments: ParsedArguments, context: CommandContext) throws
    -> ExitCode
  {
    var context = context
    context.format = try context.value(SharedOptions.format, in: arguments) ?? .table
    let entries = try context.openDatabase().lintSuppressions()
    context.print(
      AnswerView(
        header: [
          entries.isEmpty
            ? "Nothing is suppressed."
            : LintReportText.plural(entries.count, "suppression")
              + ": lint lists the findings they cover apart and never fails on them."
        ], fields: [], rowsKey: "suppressions", columns: LintSuppression.columns, rows: entries))
    return .success
  }
}

/// A suppression `lint unsuppress` cannot find: exit 66.
struct LintSuppressionNotFound: CommandFailure, CustomStringConvertible {
  let description: String
  var exitCode: ExitCode { .notFound }
  init(_ description: String) { self.description = description }
}
