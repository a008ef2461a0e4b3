/// One recorded fire as exported: where and when it happened.
///
/// Its texts, like `ExportOutcome`'s, are capped as the recorder caps them
/// (`RecordedText.Limit.name`; an error message at `.message`), whatever the file holds.
///
/// Numbers (`number`, `parentNumber`, `rootNumber`) are the fire's number within its session,
/// the same in every file the session is merged into; with the session UUID they identify it.
public struct ExportFire: Equatable, Sendable {
  /// The fire's number within its session.
  public let number: Int64
  /// The number of the fire whose handler sent this one, when it was recorded.
  public let parentNumber: Int64?
  /// The number of the outermost fire of the chain this fire belongs to (itself when it has
  /// no parent).
  public let rootNumber: Int64
  /// The control's name, or `nil` when its row is missing.
  public let control: String?
  /// The control's kind (`Button`, …), or `nil` when its row is missing.
  public let controlKind: String?
  /// The events sent, by name (`touchUpInside`, or `valueChanged|editingChanged`).
  public let events: String
  /// `interaction` or `programmatic`.
  public let origin: String
  /// 1 for a fire from outside any handler, 2 for one sent by a handler, …
  public let depth: Int64
  /// When it was sent, Unix epoch nanoseconds.
  public let atUnixNanoseconds: Int64
}

/// One handler outcome as exported: which handler, what happened, how long it took.
public struct ExportOutcome: Equatable, Sendable {
  /// The outcome's number within its session.
  public let number: Int64
  /// The fire's number within its session (its fire's row may be missing; see
  /// `ExportFireGroup.fire`).
  public let fireNumber: Int64
  /// The handler's name (its identifier, or its registration site), or `nil` when its
  /// registration row is missing.
  public let handler: String?
  /// The `UIAction`-style identifier, if it was registered with one.
  public let identifier: String?
  /// `closure` or `targetAction`.
  public let handlerKind: String?
  /// Where it was registered, `File.swift:42`.
  public let site: String?
  /// The gating flag's key, for a flag-gated handler.
  public let flagKey: String?
  /// `on` (the primary closure ran) or `off` (the fallback), for a flag-gated handler.
  public let variant: String?
  /// The flag's state when it ran (`enabled`, `disabled`, `rolledBack`, `unknown`).
  public let flagState: String?
  /// Whether the handler was async.
  public let isAsync: Bool
  /// `ok`, `failed`, `ownerReleased`, `skipped`, `cancelled` or `recursionLimit`.
  public let status: String
  /// Why it was skipped (`flagOff`, `removed`, `disabled`).
  public let skipReason: String?
  /// When it started, Unix epoch nanoseconds.
  public let startedUnixNanoseconds: Int64
  /// How long it ran, nanoseconds.
  public let durationNanoseconds: Int64
  /// The thrown error's type, for `failed`.
  public let errorType: String?
  /// The thrown error's description, for `failed`.
  public let errorMessage: String?
}

/// A fire with the outcomes of its handlers, in the order they were recorded. `fire` is `nil`
/// for outcomes whose fire row is missing (lost with a failed write): they are still exported.
public struct ExportFireGroup: Equatable, Sendable {
  /// The fire, or `nil` when its row is missing.
  public let fire: ExportFire?
  /// Its outcomes.
  public let outcomes: [ExportOutcome]
}
