import SleeveStore

/// What a group of outcomes is keyed by: typed, never a joined string split back apart, so a
/// flag key holding `:` (or ending in `:on`) can never make a phantom flag or share another
/// flag's cohort counts.
public enum GroupKey: Hashable, Sendable {
  /// A control, handler, flag or event set, by name.
  case name(String)
  /// A session, by id (with its name, for display).
  case session(id: Int64, name: String)
  /// One cohort of a flag: its outcomes that ran `variant`, or `nil` for the gated handler's
  /// outcomes that have no variant.
  case cohort(flag: String, variant: RecordCodes.Variant?)
  /// A handler as runs are matched by: its control (`nil` when the control's row was lost)
  /// and its name as reports show it (its `id:`, else its registration site).
  case handler(control: String?, name: String)
  /// The key is unknown: an ungated handler under `--by flag`, or an outcome whose
  /// registration, control or fire row was lost.
  case unknown

  /// How reports show it: the name; `3 CheckoutTests`; `new-checkout:on`;
  /// `CheckoutView/submit`; `-`.
  public var display: String {
    switch self {
    case .name(let name): name
    case .session(let id, let name): "\(id) \(name)"
    case .cohort(let flag, let variant): variant.map { "\(flag):\($0.name)" } ?? flag
    case .handler(let control, let name): "\(control ?? GroupTally.unknownKey)/\(name)"
    case .unknown: GroupTally.unknownKey
    }
  }
}
