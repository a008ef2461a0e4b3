/// The code a registry entry runs, erased to `Control` (the typed wrappers downcast back).
enum HandlerBody {
  /// A synchronous closure.
  case sync(@MainActor (Control) throws -> Void)
  /// An async closure, run in its own task.
  case async(@MainActor (Control) async throws -> Void)
  /// A synchronous closure that receives the entry's weakly held owner or target, strongly.
  case anchoredSync(@MainActor (AnyObject, Control) throws -> Void)
  /// An async closure that receives the entry's owner, held strongly while it runs.
  case anchoredAsync(@MainActor (AnyObject, Control) async throws -> Void)

  var isAsync: Bool {
    switch self {
    case .sync, .anchoredSync: false
    case .async, .anchoredAsync: true
    }
  }
}
