// `FailureKind` lives in SleeveStore, where the summary writer keys a session's failures by it;
// reports and comparisons name it in their public API, so `import SleeveQuery` alone makes it
// visible.
@_exported import struct SleeveStore.FailureKind
// `UnownedRows` too: `QueryDatabase.unownedRows()` returns it.
@_exported import struct SleeveStore.UnownedRows
