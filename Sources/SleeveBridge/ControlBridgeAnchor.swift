/// What a platform control keeps for Sleeve: the one strong reference from the control to its
/// bridge. Only ``ControlBridge`` makes one.
///
/// Its lifetime is the platform control's, whoever else holds the bridge: when the control
/// is deallocated it releases the anchor, whose deinit ends every handler of the mirror as
/// `ownerReleased`. The deinit runs on the main actor (at once when the control is released
/// there, as UIKit's and AppKit's are; otherwise at the main actor's next turn).
@MainActor
public final class ControlBridgeAnchor {
  let bridge: ControlBridge

  init(_ bridge: ControlBridge) {
    self.bridge = bridge
  }

  isolated deinit {
    bridge.platformControlWentAway()
  }
}
