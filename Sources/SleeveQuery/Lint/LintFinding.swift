/// One piece of a finding's evidence: a named number or text, in the order shown.
public struct LintEvidence: Equatable, Sendable {
  /// What the value measures, e.g. `registrations`, `live at once`, `p99`.
  public let name: String
  /// The value.
  public let value: Value

  /// A value of evidence; each format writes it its own way (JSON as a number).
  public enum Value: Equatable, Sendable {
    /// A count.
    case count(Int)
    /// A duration, in nanoseconds.
    case nanoseconds(Int64)
    /// A share, 0 to 1.
    case share(Double)
    /// A text, as recorded (renderers escape it).
    case text(String)
  }

  /// Evidence `name` = `value`.
  public init(_ name: String, _ value: Value) {
    self.name = name
    self.value = value
  }
}

/// One finding: a check that fired for one handler (or one control), with its evidence.
///
/// Text fields hold raw recorded text; every renderer escapes for its own format.
public struct LintFinding: Equatable, Sendable {
  /// The check that fired.
  public let check: LintCheck
  /// Its severity (the check's, or raised for a rage burst that held dead or failed
  /// interactions).
  public let severity: LintSeverity
  /// The control's name.
  public let control: String
  /// The handler's name as reports name it (`submit`, `Checkout.swift:42`), when the finding
  /// is about one handler (an error interaction's handler that threw, the handler that
  /// re-sent a fire the nesting limit refused); `nil` for a dead or rage interaction, a
  /// finding about the control as a whole.
  public let handler: String?
  /// The registration site a developer should open (`Checkout.swift:42`, as recorded):
  /// annotations go there, and suppressions match it. Every check names one: the handler's
  /// own site, the handler that threw or re-sent, or for a dead or rage interaction the
  /// control's wiring (the handler on it that ran most, else the first registered on it).
  /// `nil` only for a control no handler was ever registered on in the finding's sessions.
  public let site: String?
  /// Other sites involved (the replacing site, the other wiring), as recorded.
  public let otherSites: [String]
  /// One line saying what was found, e.g. `registered 3 times, live at once: runs 3 times
  /// per touchUpInside`.
  public let message: String
  /// The numbers behind it.
  public let evidence: [LintEvidence]
  /// The row ids of the sessions it was found in, ascending.
  public let sessions: [Int64]
  /// The suppression that covers it, if any: suppressed findings are listed apart and never
  /// fail.
  public var suppression: LintSuppressionMatch?

  /// What a suppression is matched against, in order: the site when there is one, then, for
  /// a control's own check (dead, rage and error interactions, nesting), the control's name
  /// (what such a finding was suppressed by before it named a site).
  public var suppressionKeys: [String] {
    let ownsControl: Set<LintCheck> = [
      .deadInteraction, .rageInteraction, .errorInteraction, .nestingPressure,
    ]
    var keys = site.map { [$0] } ?? []
    if site == nil || ownsControl.contains(check) { keys.append(control) }
    return keys
  }

  /// Creates a finding.
  public init(
    check: LintCheck, severity: LintSeverity? = nil, control: String, handler: String?,
    site: String?, otherSites: [String] = [], message: String, evidence: [LintEvidence],
    sessions: [Int64], suppression: LintSuppressionMatch? = nil
  ) {
    self.check = check
    self.severity = severity ?? check.severity
    self.control = control
    self.handler = handler
    self.site = site
    self.otherSites = otherSites
    self.message = message
    self.evidence = evidence
    self.sessions = sessions
    self.suppression = suppression
  }
}

/// The suppression a finding matched: why, and who said so.
public struct LintSuppressionMatch: Equatable, Sendable {
  /// The reason given to `sleeve lint suppress`.
  public let reason: String
  /// Who suppressed it, when given.
  public let actor: String?

  /// Creates a match.
  public init(reason: String, actor: String?) {
    self.reason = reason
    self.actor = actor
  }
}

/// Everything `sleeve lint` found in a selection.
public struct LintReport: Equatable, Sendable {
  /// Active findings (not suppressed), most serious first, then by control, handler, check.
  public let findings: [LintFinding]
  /// Findings a suppression covers, in the same order.
  public let suppressed: [LintFinding]
  /// The checks that ran (not disabled).
  public let checks: [LintCheck]
  /// The sessions examined.
  public let sessions: Int
  /// Sessions recorded before schema 0004: the checks that need interactions and lifetimes
  /// did not run for them.
  public let sessionsWithoutInteractionData: Int
  /// Sessions whose raw fires and outcomes were pruned (`sleeve prune`): no check ran for
  /// them (the checks read raw rows), and none of the findings comes from them.
  public let sessionsRawPruned: Int
  /// The options the checks ran with.
  public let options: LintOptions

  /// Creates a report.
  public init(
    findings: [LintFinding], suppressed: [LintFinding], checks: [LintCheck], sessions: Int,
    sessionsWithoutInteractionData: Int, sessionsRawPruned: Int = 0, options: LintOptions
  ) {
    self.sessionsRawPruned = sessionsRawPruned
    self.findings = findings
    self.suppressed = suppressed
    self.checks = checks
    self.sessions = sessions
    self.sessionsWithoutInteractionData = sessionsWithoutInteractionData
    self.options = options
  }

  /// Active findings at `severity` or more serious.
  public func count(atLeast severity: LintSeverity) -> Int {
    findings.count { $0.severity <= severity }
  }
}

/// The thresholds the checks use.
public struct LintOptions: Equatable, Sendable {
  /// A synchronous handler stalls when its p99 or its maximum is above this (16.7 ms, one
  /// frame at 60 Hz).
  public var frameBudgetNanoseconds: Int64 = 16_700_000
  /// A rage burst is at least this many interactions on one control ...
  public var rageCount = 3
  /// ... within this window (1 s).
  public var rageWindowNanoseconds: Int64 = 1_000_000_000
  /// ... each started at least this long after the one before it on the control (100 ms).
  ///
  /// People tap at most 6 or 7 times a second, about 150 ms apart (100 ms leaves room for a
  /// fast pair): interactions that start closer together are a machine's (a test's loop, a
  /// script), not a person's repeating, so such an interaction ends any burst and starts
  /// none, and a test that taps a control 40 times in a loop is not rage.
  public var rageMinimumGapNanoseconds: Int64 = 100_000_000
  /// The checks not to run.
  public var disabled: Set<LintCheck> = []

  /// The defaults: 16.7 ms frames, 3 interactions within 1 s at least 100 ms apart, every
  /// check on.
  public init() {}
}
