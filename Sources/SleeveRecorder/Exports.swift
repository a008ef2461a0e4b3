// `RunContext` lives in SleeveStore, where readers and writers of `session_context` share it;
// recorder users name it in `RecorderOptions.context` and `startSession(context:)`, so
// `import SleeveRecorder` alone makes it visible (and its `init(environment:)` extension).
@_exported import struct SleeveStore.RunContext
// `SessionExport` lives in SleeveStore too, below SleeveExport, whose `OTLPSessionExport`
// adopts it without importing the recorder; `RecorderOptions.export` takes one, so
// `import SleeveRecorder` alone makes it visible, as it was when it lived here.
@_exported import protocol SleeveStore.SessionExport
