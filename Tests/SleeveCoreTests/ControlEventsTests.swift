import SleeveCore
import Testing

@Suite("ControlEvents")
struct ControlEventsTests {
  static let uiKitRawValues: [(ControlEvents, UInt)] = [
    (.touchDown, 1 << 0), (.touchDownRepeat, 1 << 1), (.touchDragInside, 1 << 2),
    (.touchDragOutside, 1 << 3), (.touchDragEnter, 1 << 4), (.touchDragExit, 1 << 5),
    (.touchUpInside, 1 << 6), (.touchUpOutside, 1 << 7), (.touchCancel, 1 << 8),
    (.valueChanged, 1 << 12), (.primaryActionTriggered, 1 << 13),
    (.menuActionTriggered, 1 << 14), (.editingDidBegin, 1 << 16), (.editingChanged, 1 << 17),
    (.editingDidEnd, 1 << 18), (.editingDidEndOnExit, 1 << 19), (.allTouchEvents, 0xFFF),
    (.allEditingEvents, 0xF0000), (.applicationReserved, 0x0F00_0000),
    (.systemReserved, 0xF000_0000), (.allEvents, 0xFFFF_FFFF),
  ]

  static let descriptions: [(ControlEvents, String)] = [
    (ControlEvents(), "none"), (.touchUpInside, "touchUpInside"),
    ([.primaryActionTriggered, .touchDown], "touchDown|primaryActionTriggered"),
    (ControlEvents(rawValue: 1 << 24 | 1 << 6), "touchUpInside|0x1000000"),
  ]

  @Test("raw values are UIKit's", arguments: uiKitRawValues)
  func rawValuesAreUIKits(event: ControlEvents, raw: UInt) {
    #expect(event.rawValue == raw)
  }

  @Test("group masks contain their members")
  func groupMasksContainTheirMembers() {
    #expect(ControlEvents.allTouchEvents.contains([.touchDown, .touchCancel]))
    #expect(ControlEvents.allEditingEvents.contains([.editingDidBegin, .editingDidEndOnExit]))
    #expect(!ControlEvents.allTouchEvents.contains(.valueChanged))
    #expect(ControlEvents.allEvents.contains(.applicationReserved))
  }

  @Test("intersects is true when masks share any event")
  func intersectsWhenMasksShareAnyEvent() {
    #expect(ControlEvents([.touchDown, .touchUpInside]).intersects(.touchUpInside))
    #expect(ControlEvents.allEvents.intersects(.editingChanged))
    #expect(!ControlEvents.touchDown.intersects(.touchUpInside))
    #expect(!ControlEvents().intersects(.allEvents))
  }

  @Test("description names each event in bit order", arguments: descriptions)
  func descriptionNamesEachEvent(events: ControlEvents, expected: String) {
    #expect(events.description == expected)
  }
}
