import SleeveCore
import SleeveStore

/// One buffered structural event (rare and often large, so boxed). Fires and outcomes, the
/// hot events, have lanes of their own in ``Batch``.
enum RecordEvent: Sendable {
  case sessionStarted(SessionStart)
  case registered(Box<RegisteredHandler>)
  /// A removal and its place in the session's order of registry changes.
  case removed(RemovalInfo, sequence: Int64)
  /// A user interaction that ended; written after the fires of its batch, whose row ids it
  /// names.
  case interactionEnded(Box<InteractionInfo>)
  /// A control the session has not described yet (fires carry only its id).
  case controlSeen(ControlInfo)
  case flagDefined(Box<FlagDefinition>)
  case flagChanged(Box<FlagChange>)
  /// The session's end, with how its test ended when a test framework said so.
  case sessionEnded(endedUnixNanoseconds: Int64, testResult: TestIdentity.Result?)
}

/// A registration as recorded: what the core reported, and, for an added or existing
/// handler, its place in the session's order of registry changes (`registration_lifetimes`).
struct RegisteredHandler: Sendable {
  let info: RegistrationInfo
  /// The session's count of additions and removals when this one happened (0 for a change
  /// of events, which is neither).
  let sequence: Int64
}

/// A buffered event and the session it belongs to.
struct PendingEvent: Sendable {
  let session: SessionKey
  let event: RecordEvent
}

/// The writer's handle for a session (an index into its session table), stable for the
/// recorder's lifetime.
struct SessionKey: Hashable, Sendable {
  let rawValue: UInt32
}

/// A fire, reduced to plain integers: its control is described once per session by a
/// `controlSeen` event.
struct FireRecord: Sendable {
  let id: UInt64
  let control: UInt64
  let events: UInt
  /// 0 when the fire has no parent in the same session.
  let parent: UInt64
  let atNanoseconds: Int64
  let depth: Int32
  let origin: UInt8

  /// The record of `fire`; its parent is kept only when `parentIsRecorded` (the parent is a
  /// fire of the same session), so no row can point at a fire of another session.
  init(_ fire: borrowing FireInfo, parentIsRecorded: Bool = true) {
    id = fire.id.rawValue
    control = fire.control.id.rawValue
    events = fire.events.rawValue
    origin = UInt8(
      (fire.origin == .interaction ? RecordCodes.FireOrigin.interaction : .programmatic).rawValue)
    parent = parentIsRecorded ? fire.parent?.rawValue ?? 0 : 0
    depth = Int32(clamping: fire.depth)
    atNanoseconds = fire.atNanoseconds
  }
}

/// An outcome, reduced to plain integers: the flag key is the registration's, so only the
/// variant and the state that chose it are kept, and a thrown error is kept beside it in the
/// batch.
struct OutcomeRecord: Sendable {
  let fire: UInt64
  let registration: UInt64
  let startedAtNanoseconds: Int64
  let durationNanoseconds: Int64
  let status: UInt8
  let reason: UInt8
  /// The stored `outcomes.variant` code (`RecordCodes.Variant`), or -1 when not gated.
  let variant: Int8
  /// The stored `RecordCodes.FlagState` code (meaningful only when gated): for a rollout,
  /// the state the variant served amounts to (enabled for on, disabled for off).
  let flagState: UInt8
  let isAsync: Bool
  /// Whether ``assignment`` holds the unit's assignment hash (a rollout whose unit was known).
  let isAssigned: Bool
  /// The rollout's share in basis points, or -1 when the flag was not rolling out.
  let rolloutBasisPoints: Int16
  /// The unit's ``RolloutHash`` when ``isAssigned``.
  let assignment: UInt64
  /// 0: no error; otherwise 1 + the index of the thrown error in its batch's `errors`.
  var errorIndex: UInt32 = 0

  /// A plain handler's `ok` outcome (synchronous, no flag, no error).
  init(succeeded fire: FireID, registration: RegistrationID, startedAt: Int64, duration: Int64) {
    self.fire = fire.rawValue
    self.registration = registration.rawValue
    startedAtNanoseconds = startedAt
    durationNanoseconds = duration
    (status, reason) = StatusCodes.okCodes
    variant = -1
    flagState = 0
    rolloutBasisPoints = -1
    isAssigned = false
    assignment = 0
    isAsync = false
  }

  init(_ outcome: borrowing HandlerOutcome) {
    fire = outcome.fire.rawValue
    registration = outcome.registration.rawValue
    startedAtNanoseconds = outcome.startedAtNanoseconds
    durationNanoseconds = outcome.durationNanoseconds
    (status, reason) = StatusCodes.codes(for: outcome.status)
    if let flag = outcome.flag {
      variant = Int8((flag.variant == .on ? RecordCodes.Variant.on : .off).rawValue)
      if let percent = flag.rolloutPercent {
        let served: RecordCodes.FlagState = flag.variant == .on ? .enabled : .disabled
        flagState = UInt8(served.rawValue)
        rolloutBasisPoints = Int16(percent.basisPoints)
        isAssigned = flag.rollout?.assignment != nil
        assignment = flag.rollout?.assignment ?? 0
      } else {
        flagState = UInt8(StatusCodes.code(for: flag.state).rawValue)
        rolloutBasisPoints = -1
        isAssigned = false
        assignment = 0
      }
    } else {
      variant = -1
      flagState = 0
      rolloutBasisPoints = -1
      isAssigned = false
      assignment = 0
    }
    isAsync = outcome.isAsync
  }
}

/// A thrown error as text, both parts capped (``RecordedText``): the type at
/// `RecordedText.Limit.name`, the message at `RecordedText.Limit.message` (4,096 UTF-8 bytes,
/// marker included).
struct ErrorText: Sendable {
  let type: String
  let message: String

  init(_ error: any Error) {
    type = RecordedText.capped(String(reflecting: Swift.type(of: error)), to: .name)
    message = RecordedText.capped(String(describing: error), to: .message)
  }
}

/// The session's row (and its `session_context` row, when anything is known), inserted by
/// the writer in one transaction.
struct SessionStart: Sendable {
  let metadata: SessionMetadata
  /// Resolved and in recorded form.
  let context: RunContext
  /// In recorded form.
  let test: TestIdentity?
  let durability: RecorderOptions.Durability
  let startedUnixNanoseconds: Int64
  let startedMonotonicNanoseconds: Int64
}

/// Shares an immutable value by reference, so a large payload costs the buffer one pointer.
final class Box<Value: Sendable>: Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// How the core's outcome statuses and flag states map to the stored codes of `RecordCodes`
/// (SleeveStore, the one home of the codes).
enum StatusCodes {
  /// The codes of `ok`: ``codes(for:)`` of `.ok`, for the plain-success path.
  static let okCodes: (status: UInt8, reason: UInt8) = (UInt8(RecordCodes.Status.ok.rawValue), 0)

  static func codes(for status: OutcomeStatus) -> (status: UInt8, reason: UInt8) {
    let (code, reason): (RecordCodes.Status, RecordCodes.SkipReason?) =
      switch status {
      case .ok: (.ok, nil)
      case .failed: (.failed, nil)
      case .ownerReleased: (.ownerReleased, nil)
      case .skipped(.flagOff): (.skipped, .flagOff)
      case .skipped(.removed): (.skipped, .removed)
      case .skipped(.disabled): (.skipped, .disabled)
      case .cancelled: (.cancelled, nil)
      case .recursionLimit: (.recursionLimit, nil)
      }
    return (UInt8(code.rawValue), UInt8(reason?.rawValue ?? 0))
  }

  static func code(for state: FlagState?) -> RecordCodes.FlagState {
    switch state {
    case nil: .unknown
    case .enabled: .enabled
    case .disabled: .disabled
    case .rolledBack: .rolledBack
    // Outcomes of a rollout store the state their variant amounts to (OutcomeRecord).
    case .rollingOut: .disabled
    }
  }
}

extension InteractionInfo {
  /// Its fires' process-wide numbers, first to last (`nil` if a damaged value runs backwards).
  var fireRange: ClosedRange<UInt64>? {
    firstFire.rawValue <= lastFire.rawValue ? firstFire.rawValue...lastFire.rawValue : nil
  }
}
