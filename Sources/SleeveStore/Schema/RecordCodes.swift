/// The small integer codes Sleeve stores in its high-volume rows, with their names: the one
/// home of the schema's lookup tables (`fire_origins`, `outcome_statuses`, `skip_reasons`,
/// `flag_states`) and of the `outcomes.variant` codes, and of the names its text columns hold
/// (`flag_events.state`, `sessions.status`). The recorder writes these codes, the queries and
/// the export read them; `RecordCodesTests` holds every table here against the lookup tables
/// and CHECK constraints of a freshly migrated file.
public enum RecordCodes {
  /// `outcome_statuses`: how a handler invocation ended.
  public enum Status: Int64, CaseIterable, Sendable {
    case ok = 0
    case failed = 1
    case ownerReleased = 2
    case skipped = 3
    case cancelled = 4
    case recursionLimit = 5
  }

  /// `skip_reasons`: why a `skipped` invocation did not run.
  public enum SkipReason: Int64, CaseIterable, Sendable {
    case flagOff = 1
    case removed = 2
    case disabled = 3

  }

  /// `flag_states`: a gating flag's state when its handler ran.
  public enum FlagState: Int64, CaseIterable, Sendable {
    case unknown = 0
    case enabled = 1
    case disabled = 2
    case rolledBack = 3

  }

  /// `flag_events.state`: the state a flag change sets, by name (a text column, unlike the
  /// codes of ``FlagState``, whose names are the first three of these). Every reader, writer
  /// and output names a flag state from here; SleeveCore's `FlagState.name` gives the same
  /// names (`FlagStateNameTests` holds the two equal). A rollout is stored as `disabled`, its
  /// share beside it in `flag_rollouts` (``storedName``).
  public enum FlagChangeState: String, CaseIterable, Sendable {
    case enabled
    case disabled
    case rolledBack
    case rollingOut

    /// `enabled`, `disabled`, `rolledBack` or `rollingOut`: the name a change carries
    /// (`FlagLedger.Change.state`) and every output shows.
    public var name: String { rawValue }

    /// The name its `flag_events` row holds: a rollout is stored as `disabled` (what a binary
    /// that predates rollouts serves), with its share in `flag_rollouts`.
    public var storedName: String { self == .rollingOut ? Self.disabled.name : name }

    /// The name a `flag_events` row holds for a change named `name`; a name this binary does
    /// not know is stored as it is.
    public static func storedName(of name: String) -> String {
      Self(rawValue: name)?.storedName ?? name
    }
  }

  /// `sessions.status`: whether a session's `end()` was recorded (the column's CHECK allows
  /// exactly these). Statements that compare the column build their SQL from ``sqlLiteral``.
  public enum SessionStatus: String, CaseIterable, Sendable {
    /// Recording, or cut off before its end was recorded.
    case running
    /// Its end was recorded.
    case ended

    /// `running` or `ended`, as the column holds it.
    public var name: String { rawValue }

    /// The name as a SQL string literal (`'ended'`), for a statement's text.
    public var sqlLiteral: String { "'\(rawValue)'" }
  }

  /// `outcomes.variant`: which closure of a flag-gated handler ran (NULL: not gated).
  public enum Variant: Int64, CaseIterable, Sendable {
    case off = 0
    case on = 1

  }

  /// `fire_origins`: what sent a fire.
  public enum FireOrigin: Int64, CaseIterable, Sendable {
    case interaction = 0
    case programmatic = 1

  }

  /// The name of stored code `code` of kind `Code`, or the number itself for a code this
  /// binary does not know (a damaged or foreign row is shown as it is, never trapped on).
  public static func name<Code: RecordCode>(_ code: Int64, as: Code.Type) -> String {
    Code(rawValue: code)?.name ?? String(code)
  }
}

/// One table of codes: an `Int64` raw value as stored, and its name.
public protocol RecordCode: RawRepresentable, CaseIterable, Sendable where RawValue == Int64 {
  /// The name in the lookup table and in every output.
  var name: String { get }
}

extension RecordCode {
  /// The case's own name (`ok`, `ownerReleased`, `rolledBack`, …), which is the name the
  /// lookup tables hold: `RecordCodesTests` holds the two equal.
  public var name: String { String(describing: self) }
}

extension RecordCodes.Status: RecordCode {}
extension RecordCodes.SkipReason: RecordCode {}
extension RecordCodes.FlagState: RecordCode {}
extension RecordCodes.Variant: RecordCode {}
extension RecordCodes.FireOrigin: RecordCode {}
