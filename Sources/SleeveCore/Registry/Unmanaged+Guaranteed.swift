extension Unmanaged {
  /// Calls `body` with the instance, neither retained nor released: the caller promises that
  /// another reference keeps it alive until `body` returns.
  ///
  /// It wraps the standard library's `_withUnsafeGuaranteedRef`. Calling that directly from
  /// main-actor code costs a dynamic isolation check per call (the standard library is not
  /// compiled in Swift 6 mode, so a main-actor closure passed to it is checked when called: a
  /// fire of eight handlers went from 827 instructions to 2,074); through this wrapper,
  /// compiled in Swift 6 mode, the closure's isolation is checked statically.
  @inline(__always)
  func withGuaranteedReference<Result>(_ body: (Instance) throws -> Result) rethrows -> Result {
    try _withUnsafeGuaranteedRef { try body($0) }
  }
}
