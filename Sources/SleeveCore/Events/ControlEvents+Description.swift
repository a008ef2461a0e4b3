extension ControlEvents: CustomStringConvertible {
  /// The single events this mask holds, by name, in bit order.
  static let namedEvents: [(ControlEvents, String)] = [
    (.touchDown, "touchDown"), (.touchDownRepeat, "touchDownRepeat"),
    (.touchDragInside, "touchDragInside"), (.touchDragOutside, "touchDragOutside"),
    (.touchDragEnter, "touchDragEnter"), (.touchDragExit, "touchDragExit"),
    (.touchUpInside, "touchUpInside"), (.touchUpOutside, "touchUpOutside"),
    (.touchCancel, "touchCancel"), (.valueChanged, "valueChanged"),
    (.primaryActionTriggered, "primaryActionTriggered"),
    (.menuActionTriggered, "menuActionTriggered"), (.editingDidBegin, "editingDidBegin"),
    (.editingChanged, "editingChanged"), (.editingDidEnd, "editingDidEnd"),
    (.editingDidEndOnExit, "editingDidEndOnExit"),
  ]

  /// The mask as `|`-joined event names, with any unnamed bits as one hexadecimal remainder.
  ///
  /// Stable: recorded sessions and the `sleeve` command group by this text.
  /// `[.touchDown, .touchUpInside]` reads `touchDown|touchUpInside`; the empty mask reads `none`.
  public var description: String {
    if isEmpty { return "none" }
    var names: [String] = []
    var remaining = rawValue
    for (event, name) in Self.namedEvents where contains(event) {
      names.append(name)
      remaining &= ~event.rawValue
    }
    if remaining != 0 { names.append("0x" + String(remaining, radix: 16)) }
    return names.joined(separator: "|")
  }
}
