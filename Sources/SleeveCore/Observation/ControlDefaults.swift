/// Defaults for controls created later in the current task: the observer and flag provider a
/// ``Control`` gets when its initializer is not given one.
///
/// Scoped to a task and its children, so parallel tests each see only their own controls:
///
/// ```swift
/// ControlDefaults.$observer.withValue(recordingObserver) {
///   let button = Button(name: "submit")   // observed by recordingObserver
/// }
/// ```
///
/// A control created outside any such scope falls back to ``Control/defaultObserver`` and
/// ``Control/defaultFlags`` (process-wide, for apps).
public enum ControlDefaults {
  /// The observer for controls created in this task, if any.
  @TaskLocal public static var observer: (any DispatchObserver)?
  /// The flag provider for controls created in this task, if any.
  @TaskLocal public static var flags: (any FlagProvider)?
}
