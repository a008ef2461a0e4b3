/// The small integer codes Sleeve stores in its high-volume rows, with their names: the one
/// home of the schema's lookup tables (`fire_origins`, `outcome_statuses`, `skip_reasons`,
/// `flag_states`) and of the `outcomes.variant` codes. The recorder writes these codes, the
/// queries and the export read them; `RecordCodesTests` holds every table here against the
/// lookup tables of a freshly migrated file.
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
