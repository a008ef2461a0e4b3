import SleeveQuery

/// The JSON parts every flag report shares (`sleeve flags`, `sleeve report --format json`), so
/// their keys and values stay the same in both.
enum FlagJSON {
  /// `key`, `state`, `owner`, `maxErrorRate`, `maxP99`, `minSamples`, in that order.
  static func definition(_ flag: FlagReport) -> [(String, JSONValue)] {
    [
      ("key", .string(flag.key)), ("state", .string(flag.state)), ("owner", .text(flag.owner)),
      ("maxErrorRate", .number(flag.maxErrorRate)), ("maxP99", .integer(flag.maxP99Nanoseconds)),
      ("minSamples", .integer(flag.minSamples)),
    ]
  }

  /// The state changes, oldest first.
  static func history(_ flag: FlagReport) -> JSONValue {
    .array(
      flag.history.map { change in
        .object([
          ("state", .string(change.state)), ("reason", .text(change.reason)),
          ("actor", .text(change.actor)),
          ("at", .string(Formatting.timestamp(unixNanoseconds: change.atUnixNanoseconds))),
          ("session", .integer(change.session)),
        ])
      })
  }
}
