extension ControlEvents {
  /// Each event of the mask on its own, lowest bit first: `[.touchDown, .touchUpInside]` for
  /// `[.touchUpInside, .touchDown]`. Bits without a name are events too.
  package var singleEvents: [ControlEvents] {
    var events: [ControlEvents] = []
    var remaining = rawValue
    while remaining != 0 {
      let lowest = remaining & (~remaining &+ 1)
      events.append(ControlEvents(rawValue: lowest))
      remaining &= ~lowest
    }
    return events
  }
}
