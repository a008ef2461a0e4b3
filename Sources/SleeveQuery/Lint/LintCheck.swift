/// How serious a lint finding is. Only ``error`` fails `sleeve lint` (exit 1) unless
/// `--fail-on` says otherwise.
public enum LintSeverity: String, CaseIterable, Comparable, Sendable {
  /// A defect: the handler does the wrong thing (runs twice per tap, recursion refused).
  case error
  /// Likely a defect, worth a look: the evidence shows the pitfall, not its harm.
  case warning
  /// Worth knowing; never fails by default.
  case note

  /// `error` < `warning` < `note`: more serious first.
  public static func < (lhs: LintSeverity, rhs: LintSeverity) -> Bool {
    lhs.rank < rhs.rank
  }

  private var rank: Int {
    switch self {
    case .error: 0
    case .warning: 1
    case .note: 2
    }
  }
}

/// One of `sleeve lint`'s checks: a closure-sleeve pitfall that leaves a trace in recorded
/// sessions. The raw value is the check's stable id (`--disable`, suppressions, JSON, JUnit).
public enum LintCheck: String, CaseIterable, Sendable {
  /// The same site registered more than once on one control and event, without an `id:`,
  /// the registrations live at the same time.
  case accumulation = "handler-accumulation"
  /// An `id:` taken over by a registration from another site, where the two sites fight over
  /// it (different owners, or the id going back and forth).
  case silentReplacement = "silent-replacement"
  /// Target-action and closure handlers from different sites on one control and event, live
  /// at the same time.
  case mixedWiring = "mixed-wiring"
  /// A handler whose owner went away while its control kept firing.
  case orphanedHandler = "orphaned-handler"
  /// User interactions on an enabled control none of whose fires ran a handler.
  case deadInteraction = "dead-interaction"
  /// Several interactions on one control in a short window.
  case rageInteraction = "rage-interaction"
  /// User interactions whose handlers failed.
  case errorInteraction = "error-interaction"
  /// Synchronous handlers slower than a frame at p99 or at their maximum.
  case mainThreadStall = "main-thread-stall"
  /// Fires refused at the nesting limit.
  case nestingPressure = "nesting-pressure"

  /// The check's stable id, e.g. `handler-accumulation`.
  public var id: String { rawValue }

  /// The severity a finding of this check has (``rageInteraction`` is raised to `warning`
  /// when its burst held dead or failed interactions).
  public var severity: LintSeverity {
    switch self {
    case .accumulation, .nestingPressure: .error
    case .silentReplacement, .mixedWiring, .orphanedHandler, .deadInteraction,
      .errorInteraction, .mainThreadStall:
      .warning
    case .rageInteraction: .note
    }
  }

  /// A short title, e.g. `Handler accumulation`.
  public var title: String {
    switch self {
    case .accumulation: "Handler accumulation"
    case .silentReplacement: "Silent replacement"
    case .mixedWiring: "Mixed wiring"
    case .orphanedHandler: "Orphaned handler"
    case .deadInteraction: "Dead interaction"
    case .rageInteraction: "Rage interaction"
    case .errorInteraction: "Error interaction"
    case .mainThreadStall: "Main-thread stall"
    case .nestingPressure: "Nesting pressure"
    }
  }

  /// One line: the pitfall, then the fix.
  public var explanation: String {
    switch self {
    case .accumulation:
      "configuring a control again adds its handler again, so it runs once per configuration; "
        + "register it once, give it an id: so a new one replaces the old, or cancel the old"
    case .silentReplacement:
      "two owners register the same id:, so each silently removes the other's handler; give "
        + "each owner its own id, or let one owner register it"
    case .mixedWiring:
      "target-action and closure handlers from different places answer one event, so no one "
        + "owns what it does; wire the event in one way, from one place"
    case .orphanedHandler:
      "the handler's owner went away but its control kept being used, so those interactions "
        + "did nothing it was meant to do; tie the handler to an owner that lives as long as "
        + "the control, or re-register it when the new owner appears"
    case .deadInteraction:
      "the user interacted with an enabled control and no handler ran; disable or hide the "
        + "control, or wire the event the user sends"
    case .rageInteraction:
      "the user interacted with one control again and again in a short time, usually because "
        + "nothing visible happened; make the first interaction answer at once"
    case .errorInteraction:
      "the user's interaction reached a handler that threw; handle the error where the user "
        + "can see it, or fix its cause"
    case .mainThreadStall:
      "a synchronous handler took longer than a frame, so the UI froze while it ran; move the "
        + "work off the main thread (an async handler) or make it cheaper"
    case .nestingPressure:
      "handlers that fire other controls reached the nesting limit, so fires were refused; "
        + "break the chain that fires back into itself"
    }
  }

  /// Whether the check needs what schema 0004 records (interactions, registration
  /// lifetimes): a session recorded before it is not checked for this one, and the report
  /// says so.
  public var needsInteractionData: Bool {
    switch self {
    case .accumulation, .silentReplacement, .mixedWiring, .deadInteraction, .rageInteraction,
      .errorInteraction:
      true
    case .orphanedHandler, .mainThreadStall, .nestingPressure: false
    }
  }
}
