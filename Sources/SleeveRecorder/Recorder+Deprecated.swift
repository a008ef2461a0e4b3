import SleeveStore

/// The names the recorder's async forms had before they took their synchronous twins' names
/// (one name per operation, overloaded on `async`). Kept so existing code compiles, with a
/// warning and a fix-it.
extension Recorder {
  /// Opens a recorder without blocking the caller's thread.
  @available(*, deprecated, renamed: "init(path:options:)")
  public static func open(path: String, options: RecorderOptions = RecorderOptions())
    async throws -> Recorder
  {
    try await Recorder(path: path, options: options)
  }

  /// Starts a session without blocking the caller's thread.
  @available(*, deprecated, renamed: "startSession(name:tags:environment:durability:context:test:)")
  public func beginSession(
    name: String, tags: [String] = [], environment: [String] = [],
    durability: RecorderOptions.Durability? = nil, context: RunContext? = nil,
    test: TestIdentity? = nil
  ) async throws -> RecordingSession {
    try await startSession(
      name: name, tags: tags, environment: environment, durability: durability,
      context: context, test: test)
  }
}
