import SleeveQuery

extension AnswerPlan {
  /// The plan's fields in JSON outputs: `answeredFrom` (`raw rows` or `summaries`),
  /// `relativeError` (the percentiles' bound, `null` when exact) and `rawPruned` (the
  /// selected sessions whose raw rows are gone).
  var jsonFields: [(String, JSONValue)] {
    [
      ("answeredFrom", .string(source.rawValue)), ("relativeError", .number(relativeError)),
      ("rawPruned", .array(pruned.map { .int($0) })),
    ]
  }
}
