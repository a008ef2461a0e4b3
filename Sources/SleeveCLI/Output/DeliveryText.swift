import SleeveStore

/// How a session's OTLP deliveries read in `sleeve sessions`: the one home of their text and
/// JSON forms.
enum DeliveryText {
  /// One cell: each signal's state, grouped by endpoint when there are several
  /// (`traces delivered, metrics delivered`; `-` when it was never pushed).
  static func summary(_ states: [DeliveryLedger.State]) -> String {
    guard !states.isEmpty else { return "-" }
    let endpoints = Set(states.map { endpointPrefix($0) })
    func part(_ state: DeliveryLedger.State) -> String {
      var text = "\(state.signal) \(state.outcome.rawValue)"
      if state.rejected > 0 { text += " (\(state.rejected) rejected)" }
      return text
    }
    guard endpoints.count > 1 else { return states.map(part).joined(separator: ", ") }
    return states.map { endpointPrefix($0) + ": " + part($0) }.joined(separator: ", ")
  }

  /// The endpoint a state's URL belongs to: the URL without its signal path.
  private static func endpointPrefix(_ state: DeliveryLedger.State) -> String {
    let suffix = "/v1/" + state.signal
    guard state.endpoint.hasSuffix(suffix) else { return state.endpoint }
    return String(state.endpoint.dropLast(suffix.count))
  }

  /// A state in JSON: endpoint, signal, state, requests, items, rejected, when, last error.
  static func json(_ state: DeliveryLedger.State) -> JSONValue {
    .object([
      ("endpoint", .string(state.endpoint)), ("signal", .string(state.signal)),
      ("state", .string(state.outcome.rawValue)), ("requests", .int(state.requests)),
      ("items", .int(state.items)), ("rejected", .int(state.rejected)),
      (
        "attempted",
        .string(Formatting.timestamp(unixNanoseconds: state.attemptedUnixNanoseconds))
      ),
      ("sessionEnded", .bool(state.sessionEnded)), ("lastError", .text(state.lastError)),
    ])
  }
}
