import SleeveCore

extension PlatformControlPort {
  /// This control's bridge to Sleeve, made on first use (``ControlBridge/bridge(for:)``).
  public var sleeve: ControlBridge { ControlBridge.bridge(for: self) }

  /// Runs `handler` with this platform control on each of `events`: the closure-sleeve
  /// pattern for real controls. The control is held weakly and passed in strongly, so the
  /// handler needs no `[weak self]`; the handler is a handler of the mirror (``sleeve``), with
  /// every rule of ``ControlHandling/on(_:id:file:line:_:)-(_,_,_,_,(Self)->Void)``.
  ///
  /// ```swift
  /// button.on(.touchUpInside) { button in button.isEnabled = false }
  /// ```
  @discardableResult
  public func on(
    _ events: ControlEvents, id: String? = nil, file: StaticString = #fileID,
    line: UInt = #line, _ handler: @escaping @MainActor (Self) throws -> Void
  ) -> Registration {
    sleeve.control.on(events, id: id, owner: self, file: file, line: line) { port, _ in
      try handler(port)
    }
  }
}
