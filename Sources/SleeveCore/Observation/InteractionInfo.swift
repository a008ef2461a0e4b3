/// One user interaction as an observer sees it, when it has ended: what the user did (a tap,
/// a toggle, typing), and which fires it sent.
///
/// An interaction is not an event: `tap()` sends `touchDown`, `touchUpInside` and
/// `primaryActionTriggered`, three fires of one interaction; `type(_:)` sends one fire per
/// character between `editingDidBegin` and `editingDidEnd`. Its fires are exactly the fires
/// of ``control`` with origin `interaction` and depth ``depth`` whose ids lie between
/// ``firstFire`` and ``lastFire``: fires sent by its handlers are deeper, and no other fire of
/// the control at that depth can start while the interaction is open.
public struct InteractionInfo: Hashable, Sendable {
  /// The interaction's identity.
  public let id: InteractionID
  /// The control the user interacted with.
  public let control: ControlInfo
  /// What the user did: `tap`, `toggle`, `type`, the name given to
  /// ``Control/performInteraction(_:_:)``, or, for a lone ``Control/sendInteraction(for:)``,
  /// its events' text form (`valueChanged`).
  public let gesture: String
  /// Whether the control was enabled when the interaction began (a disabled control's
  /// interaction runs nothing, by design).
  public let wasEnabled: Bool
  /// The nesting depth of its fires: 1 for an interaction no handler sent.
  public let depth: Int
  /// Its first fire.
  public let firstFire: FireID
  /// Its last fire.
  public let lastFire: FireID
  /// How many fires it sent (at least 1: an interaction that sent nothing is not reported).
  public let fireCount: Int
  /// When it began, in ``MonotonicClock`` nanoseconds.
  public let atNanoseconds: Int64
  /// When it ended, in ``MonotonicClock`` nanoseconds.
  public let endedAtNanoseconds: Int64
}
