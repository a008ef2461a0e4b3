/// Why a handler was skipped.
public enum SkipReason: String, Hashable, Sendable {
  /// Its flag served `off` and it has no fallback.
  case flagOff
  /// It was removed during the fire, before its turn.
  case removed
  /// The fire was a user interaction on a disabled control.
  case disabled
}

/// How one handler invocation ended.
public enum OutcomeStatus: Hashable, Sendable {
  /// It returned normally.
  case ok
  /// It threw; see ``HandlerOutcome/error``. Later handlers still ran.
  case failed
  /// Its weakly held owner or target was gone; it was not called and was pruned.
  case ownerReleased
  /// It was not called, for the reason given.
  case skipped(SkipReason)
  /// Its async task was cancelled before it finished (or it threw `CancellationError`).
  case cancelled
  /// The fire was refused because nesting reached ``Control/nestingLimit``.
  case recursionLimit

  /// `ok`, `failed`, `ownerReleased`, `skipped`, `cancelled` or `recursionLimit`.
  public var name: String {
    switch self {
    case .ok: "ok"
    case .failed: "failed"
    case .ownerReleased: "ownerReleased"
    case .skipped: "skipped"
    case .cancelled: "cancelled"
    case .recursionLimit: "recursionLimit"
    }
  }

  /// The skip reason's name, for `skipped` only.
  public var reason: String? {
    if case .skipped(let reason) = self { reason.rawValue } else { nil }
  }
}

/// One handler invocation's outcome as an observer sees it. The control is the fire's
/// (``FireInfo/control``) and the handler's (``RegistrationInfo/control``).
///
/// Cheap to pass: the rare parts (flag evaluation, thrown error) share one reference, absent
/// for the common ungated, successful handler.
public struct HandlerOutcome: Sendable {
  /// The fire it belonged to.
  public let fire: FireID
  /// The handler.
  public let registration: RegistrationID
  /// How it ended.
  public let status: OutcomeStatus
  /// Whether it ran as an async task.
  public let isAsync: Bool
  /// When it started, in ``MonotonicClock`` nanoseconds (when it was reached, if not run).
  public let startedAtNanoseconds: Int64
  /// How long it ran, in nanoseconds from a monotonic clock; 0 when it did not run.
  public let durationNanoseconds: Int64
  @usableFromInline let details: Details?

  /// The flag evaluation and error, when there is either.
  @usableFromInline
  final class Details: Sendable {
    @usableFromInline let flag: FlagEvaluation?
    @usableFromInline let error: (any Error)?

    init(flag: FlagEvaluation?, error: (any Error)?) {
      self.flag = flag
      self.error = error
    }
  }

  init(
    fire: FireID, registration: RegistrationID, status: OutcomeStatus, flag: FlagEvaluation?,
    isAsync: Bool, startedAtNanoseconds: Int64, durationNanoseconds: Int64, error: (any Error)?
  ) {
    self.fire = fire
    self.registration = registration
    self.status = status
    self.isAsync = isAsync
    self.startedAtNanoseconds = startedAtNanoseconds
    self.durationNanoseconds = durationNanoseconds
    self.details = flag == nil && error == nil ? nil : Details(flag: flag, error: error)
  }

  /// The flag evaluation that chose primary or fallback, for gated handlers.
  @inlinable public var flag: FlagEvaluation? { details?.flag }
  /// The error it threw, for `failed` (and `cancelled` by a thrown error).
  @inlinable public var error: (any Error)? { details?.error }
  /// The thrown error's type, e.g. `Checkout.PaymentError`.
  public var errorType: String? { error.map { String(reflecting: type(of: $0)) } }
  /// The thrown error's description.
  public var errorMessage: String? { error.map { String(describing: $0) } }
}
