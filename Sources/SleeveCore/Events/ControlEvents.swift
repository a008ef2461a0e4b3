/// The events a ``Control`` can send, with the raw values of UIKit's `UIControl.Event`.
///
/// The raw values are UIKit's own, so masks recorded by Sleeve read the same as masks logged
/// from a UIKit app. Masks combine like any `OptionSet`:
///
/// ```swift
/// control.on([.touchDown, .touchUpInside]) { _ in }
/// ```
public struct ControlEvents: OptionSet, Hashable, Sendable {
  /// The bit pattern, identical to `UIControl.Event.rawValue`.
  public let rawValue: UInt

  /// Creates a mask from its UIKit bit pattern.
  public init(rawValue: UInt) { self.rawValue = rawValue }

  /// A touch-down in the control.
  public static let touchDown = ControlEvents(rawValue: 1 << 0)
  /// A repeated touch-down (tap count above one).
  public static let touchDownRepeat = ControlEvents(rawValue: 1 << 1)
  /// A finger dragged within the control's bounds.
  public static let touchDragInside = ControlEvents(rawValue: 1 << 2)
  /// A finger dragged just outside the control's bounds.
  public static let touchDragOutside = ControlEvents(rawValue: 1 << 3)
  /// A finger dragged into the control's bounds.
  public static let touchDragEnter = ControlEvents(rawValue: 1 << 4)
  /// A finger dragged out of the control's bounds.
  public static let touchDragExit = ControlEvents(rawValue: 1 << 5)
  /// A touch lifted inside the control: the usual "tap".
  public static let touchUpInside = ControlEvents(rawValue: 1 << 6)
  /// A touch lifted outside the control.
  public static let touchUpOutside = ControlEvents(rawValue: 1 << 7)
  /// A touch cancelled by the system.
  public static let touchCancel = ControlEvents(rawValue: 1 << 8)
  /// The control's value changed (a switch flipped, a slider moved).
  public static let valueChanged = ControlEvents(rawValue: 1 << 12)
  /// The control's primary action was triggered (a button tap).
  public static let primaryActionTriggered = ControlEvents(rawValue: 1 << 13)
  /// A menu action was triggered from the control.
  public static let menuActionTriggered = ControlEvents(rawValue: 1 << 14)
  /// Editing began in a text control.
  public static let editingDidBegin = ControlEvents(rawValue: 1 << 16)
  /// The text of a text control changed while editing.
  public static let editingChanged = ControlEvents(rawValue: 1 << 17)
  /// Editing ended in a text control.
  public static let editingDidEnd = ControlEvents(rawValue: 1 << 18)
  /// Editing ended by the return key.
  public static let editingDidEndOnExit = ControlEvents(rawValue: 1 << 19)
  /// Every touch event (`0xFFF`).
  public static let allTouchEvents = ControlEvents(rawValue: 0xFFF)
  /// Every editing event (`0xF0000`).
  public static let allEditingEvents = ControlEvents(rawValue: 0xF_0000)
  /// The range reserved for an application's own events (`0x0F000000`).
  public static let applicationReserved = ControlEvents(rawValue: 0x0F00_0000)
  /// The range reserved for the system (`0xF0000000`).
  public static let systemReserved = ControlEvents(rawValue: 0xF000_0000)
  /// Every event (`0xFFFFFFFF`).
  public static let allEvents = ControlEvents(rawValue: 0xFFFF_FFFF)

  /// Whether the two masks share at least one event.
  ///
  /// Dispatch and removal both use intersection, never equality: an entry registered for
  /// `[.touchDown, .touchUpInside]` matches a `.touchUpInside` fire and a removal of `.allEvents`.
  @inlinable
  public func intersects(_ other: ControlEvents) -> Bool { rawValue & other.rawValue != 0 }
}
