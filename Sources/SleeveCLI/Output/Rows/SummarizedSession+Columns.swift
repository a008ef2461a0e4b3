import SleeveQuery
import SleeveStore

/// One selected session as `sleeve summarize` reports it: what became of it and how many
/// summaries it got.
struct SummarizedSession: Sendable {
  /// The session.
  let session: SessionSummary
  /// `summarized`, `already summarized`, `not ended`, `raw pruned` or `gone`.
  let result: String
  /// The summaries written, for a session summarized now.
  let summaries: Int?

  /// The rows of `report` over `sessions`, in the selection's order.
  static func rows(_ report: SessionSummarizer.Report, sessions: [SessionSummary])
    -> [SummarizedSession]
  {
    var results: [Int64: (String, Int?)] = [:]
    for item in report.summarized { results[item.session] = ("summarized", item.summaries) }
    for id in report.alreadySummarized { results[id] = ("already summarized", nil) }
    for id in report.notEnded { results[id] = ("not ended", nil) }
    for id in report.pruned { results[id] = ("raw pruned", nil) }
    for id in report.missing { results[id] = ("gone", nil) }
    return sessions.map { session in
      let (result, summaries) = results[session.id] ?? ("gone", nil)
      return SummarizedSession(session: session, result: result, summaries: summaries)
    }
  }

  /// The table's columns (JSON reports the summarizer's lists instead, ``summarizedColumns``).
  static let columns = Columns<SummarizedSession>([
    .count("session", json: nil) { $0.session.id },
    .text("name", json: nil) { $0.session.name },
    .text("result", json: nil) { $0.result },
    Column("summaries", unit: .count, layout: .numeric, members: []) { row in
      Table.Cell(row.summaries.map(String.init) ?? "-", raw: Formatting.raw(row.summaries))
    },
  ])

  /// The members of each item of JSON's `summarized`: the session and its summaries.
  static let summarizedColumns = Columns<SessionSummarizer.Report.Summarized>([
    .json("session") { .int($0.session) },
    .json("summaries") { .integer($0.summaries) },
  ])
}
