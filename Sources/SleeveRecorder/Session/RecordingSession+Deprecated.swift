import SleeveCore

/// The flag overloads of `attach` before each name got one meaning (`attach` wires a control;
/// `record` records a provider's flags). Kept so existing code compiles, with a warning and a
/// fix-it.
extension RecordingSession {
  /// Records the provider's flag definitions and current states, then every later change.
  @available(*, deprecated, renamed: "record(_:)")
  public func attach(_ flags: InMemoryFlagProvider) {
    record(flags)
  }

  /// Records the provider's flag definitions and the states it serves now.
  @available(*, deprecated, renamed: "record(_:)")
  public func attach(_ flags: DatabaseFlagProvider) {
    record(flags)
  }
}
