// `RunContext` lives in SleeveStore, where readers and writers of `session_context` share it;
// recorder users name it in `RecorderOptions.context` and `startSession(context:)`, so
// `import SleeveRecorder` alone makes it visible (and its `init(environment:)` extension).
@_exported import struct SleeveStore.RunContext
