import SleeveBridge
import SleeveCore

/// A platform control modelling what UIKit documents for `UIControl` actions:
/// - `addAction(_:for:)` uniques actions by identifier: a later action with the same
///   identifier replaces the earlier one (in its place) and may add events to it;
/// - `removeAction(identifiedBy:for:)` takes events away, and the action goes with its last;
/// - `sendActions(for:)` calls, in the order they were added, each action installed when the
///   send began whose events meet the ones sent, once;
/// - a touch reaches the actions only while the control is enabled;
/// - the control keeps its actions strongly (a trampoline holds its bridge weakly).
@MainActor
final class FakePlatformControl: PlatformControlPort {
  struct Action {
    let identifier: String
    var events: ControlEvents
    var perform: @MainActor () -> Void
  }

  var sleeveBridgeAnchor: ControlBridgeAnchor?
  var isEnabled = true
  let platformTypeName: String
  var platformAccessibilityIdentifier: String?
  private(set) var actions: [Action] = []
  /// How many times each port call was made, to tell an install from a replacement.
  private(set) var installs = 0
  private(set) var removals = 0

  init(type: String = "FakeButton", accessibilityIdentifier: String? = nil) {
    platformTypeName = type
    platformAccessibilityIdentifier = accessibilityIdentifier
  }

  func addAction(
    identifier: String, for events: ControlEvents, _ perform: @escaping @MainActor () -> Void
  ) {
    if let index = actions.firstIndex(where: { $0.identifier == identifier }) {
      actions[index].events.formUnion(events)
      actions[index].perform = perform
    } else {
      actions.append(Action(identifier: identifier, events: events, perform: perform))
    }
  }

  func removeAction(identifiedBy identifier: String, for events: ControlEvents) {
    guard let index = actions.firstIndex(where: { $0.identifier == identifier }) else { return }
    actions[index].events.subtract(events)
    if actions[index].events.isEmpty { actions.remove(at: index) }
  }

  /// UIKit's `sendActions(for:)`: runs even while disabled.
  func sendActions(for events: ControlEvents) {
    for action in actions where action.events.intersects(events) {
      action.perform()
    }
  }

  /// A user's touch sending `events`: nothing while disabled.
  func touch(_ events: ControlEvents) {
    guard isEnabled else { return }
    sendActions(for: events)
  }

  func installTrampoline(_ trampoline: PlatformTrampoline) {
    installs += 1
    addAction(identifier: trampoline.identifier, for: trampoline.event) { trampoline.fire() }
  }

  func removeTrampoline(identifiedBy identifier: String, for event: ControlEvents) {
    removals += 1
    removeAction(identifiedBy: identifier, for: event)
  }

  /// The actions Sleeve installed, as identifier and events.
  var trampolines: [(identifier: String, events: ControlEvents)] {
    actions.filter { $0.identifier.hasPrefix("sleeve.") }.map { ($0.identifier, $0.events) }
  }

  /// The union of the events Sleeve's trampolines answer.
  var trampolineEvents: ControlEvents {
    trampolines.reduce(into: ControlEvents()) { $0.formUnion($1.events) }
  }
}
