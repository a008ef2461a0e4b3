/// Gives every ``Control`` handler registration that receives the control with its own type:
/// a ``Switch`` handler gets a `Switch`, so `isOn` needs no cast.
///
/// Every `Control` conforms; you never conform a type yourself.
@MainActor
public protocol ControlHandling: Control {}

extension Control: ControlHandling {}

extension ControlHandling {
  /// The erased control passed to an entry is always the control it was registered on, an
  /// instance of `Self` or a subclass, so the unchecked downcast is sound.
  @inline(__always)
  static func typed(_ control: Control) -> Self { unsafeDowncast(control, to: Self.self) }

  func makeEntry(
    _ events: ControlEvents, kind: RegistrationInfo.Kind = .closure, id: String?,
    flag: String? = nil, primary: HandlerBody, fallback: HandlerBody? = nil,
    anchor: AnyObject? = nil, file: StaticString, line: UInt
  ) -> HandlerEntry {
    HandlerEntry(
      id: IdentifierCounter.nextRegistration(), events: events, kind: kind, identifier: id,
      flagKey: flag, primary: primary, fallback: fallback,
      site: SourceSite(fileID: file, line: line), anchor: anchor)
  }

  /// Adds `entry`, unless its events are empty (then nothing is registered and the token is
  /// inactive).
  func add(_ entry: HandlerEntry) -> Registration {
    entry.events.isEmpty ? .inactive() : register(entry)
  }
}
