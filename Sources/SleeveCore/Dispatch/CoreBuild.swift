/// How this build of SleeveCore was compiled, for the tests whose proofs depend on it.
package enum CoreBuild {
  /// Whether SleeveCore itself was compiled with optimization (`-O`): only then does a fire
  /// call its handlers without retaining them, so only then can the handler-lifetime proofs
  /// fail. `Package.swift` optimizes SleeveCore in debug builds too, and a test holds it there.
  package static var isOptimized: Bool { !_isDebugAssertConfiguration() }
}
