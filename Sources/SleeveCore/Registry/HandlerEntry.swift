/// One entry of a control's registry: a closure handler or a target-action.
///
/// Everything that identifies what the entry runs, and on which events, is immutable: a change
/// of events makes a successor entry (same registration, new mask) and retires this one. A
/// fire's snapshot therefore always sees the mask the entry had when the fire began, and
/// follows ``successor`` to decide whether a retired entry still runs.
final class HandlerEntry {
  let id: RegistrationID
  let events: ControlEvents
  let kind: RegistrationInfo.Kind
  let identifier: String?
  let flagKey: String?
  /// Whether `flagKey` keeps ``FlagKey``'s rule, decided once at registration (not per fire).
  let flagKeyIsValid: Bool
  let primary: HandlerBody
  let fallback: HandlerBody?
  let site: SourceSite
  /// The owner or target, held weakly; meaningful only when ``anchorType`` is set.
  weak var anchor: AnyObject?
  let anchorType: AnyObject.Type?
  /// Set when the entry left the registry (removed, or retired in favour of ``successor``).
  var isRetired = false
  /// The same registration with other events, when this entry was retired for a mask change.
  var successor: HandlerEntry?

  convenience init(
    id: RegistrationID, events: ControlEvents, kind: RegistrationInfo.Kind, identifier: String?,
    flagKey: String?, primary: HandlerBody, fallback: HandlerBody?, site: SourceSite,
    anchor: AnyObject?
  ) {
    self.init(
      id: id, events: events, kind: kind, identifier: identifier, flagKey: flagKey,
      primary: primary, fallback: fallback, site: site, anchor: anchor,
      anchorType: anchor.map { type(of: $0) })
  }

  private init(
    id: RegistrationID, events: ControlEvents, kind: RegistrationInfo.Kind, identifier: String?,
    flagKey: String?, primary: HandlerBody, fallback: HandlerBody?, site: SourceSite,
    anchor: AnyObject?, anchorType: AnyObject.Type?
  ) {
    self.id = id
    self.events = events
    self.kind = kind
    self.identifier = identifier
    self.flagKey = flagKey
    self.flagKeyIsValid = flagKey.map(FlagKey.isValid) ?? false
    self.primary = primary
    self.fallback = fallback
    self.site = site
    self.anchor = anchor
    self.anchorType = anchorType
    if anchorType == nil, flagKey == nil, case .sync(let handler) = primary {
      self.plainHandler = handler
      self.isPlain = true
    } else {
      self.plainHandler = nil
      self.isPlain = false
    }
  }

  /// The closure itself for the common case (synchronous, no owner, no flag), which the hot
  /// paths call without inspecting the rest of the entry. Immutable, so a caller holding the
  /// entry calls it without retaining it.
  let plainHandler: (@MainActor (Control) throws -> Void)?
  /// Whether ``plainHandler`` is set. The fast paths test this flag: comparing the optional
  /// closure with `nil` reabstracts it, which allocates in a debug build.
  let isPlain: Bool

  /// A successor with the same registration and code and another event mask. It keeps the
  /// anchor's type even when the anchor is already gone, so the successor is still pruned as
  /// `ownerReleased` instead of passing for a handler that never had an owner.
  func withEvents(_ newEvents: ControlEvents) -> HandlerEntry {
    HandlerEntry(
      id: id, events: newEvents, kind: kind, identifier: identifier, flagKey: flagKey,
      primary: primary, fallback: fallback, site: site, anchor: anchor, anchorType: anchorType)
  }

  /// The live entry this one stands for now: itself, its latest successor, or `nil` when the
  /// registration was removed.
  var current: HandlerEntry? {
    var entry = self
    while entry.isRetired {
      guard let next = entry.successor else { return nil }
      entry = next
    }
    return entry
  }

  /// Whether an owner or target was given and has since been deallocated.
  var anchorIsGone: Bool { anchorType != nil && anchor == nil }
}

/// Where a handler was registered, from `#fileID` and `#line`.
struct SourceSite {
  let fileID: StaticString
  let line: UInt

  var description: String { "\(fileID):\(line)" }
}
