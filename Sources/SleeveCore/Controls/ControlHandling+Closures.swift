/// Closure handlers: `on(_:…)`.
///
/// Each call appends a handler: calls accumulate and never overwrite each other. With `id:`,
/// a closure handler with the same id is replaced in place (it keeps its position; observers
/// see it removed with reason `replaced`), as `UIAction` identifiers work. An empty event mask
/// registers nothing and returns an inactive token.
extension ControlHandling {
  /// Runs `handler` on each of `events`, with the control as its own type.
  ///
  /// A thrown error becomes outcome `failed` and later handlers still run.
  ///
  /// ```swift
  /// toggle.on(.valueChanged) { toggle in settings.darkMode = toggle.isOn }
  /// ```
  /// - Parameters:
  ///   - events: The events to answer.
  ///   - id: Replaces the closure handler with the same id, in place.
  ///   - handler: The code to run.
  /// - Returns: A token that removes the handler when cancelled.
  @discardableResult
  public func on(
    _ events: ControlEvents, id: String? = nil, file: StaticString = #fileID,
    line: UInt = #line, _ handler: @escaping @MainActor (Self) throws -> Void
  ) -> Registration {
    add(
      makeEntry(
        events, id: id, primary: .sync { try handler(Self.typed($0)) }, file: file, line: line
      ))
  }

  /// Runs async `handler` in its own task on each of `events`; its outcome and duration are
  /// reported when it completes (`cancelled` when its task is cancelled, e.g. by cancelling
  /// the registration).
  @discardableResult
  public func on(
    _ events: ControlEvents, id: String? = nil, file: StaticString = #fileID,
    line: UInt = #line, _ handler: @escaping @MainActor (Self) async throws -> Void
  ) -> Registration {
    add(
      makeEntry(
        events, id: id, primary: .async { try await handler(Self.typed($0)) }, file: file,
        line: line))
  }

  /// Runs `handler` with `owner`, which is held weakly and passed in strongly: no
  /// `[weak self]`, no retain cycle. When `owner` is gone at fire time the handler is not
  /// called (outcome `ownerReleased`) and is removed.
  ///
  /// ```swift
  /// submit.on(.touchUpInside, owner: viewModel) { viewModel, _ in viewModel.submit() }
  /// ```
  @discardableResult
  public func on<Owner: AnyObject>(
    _ events: ControlEvents, id: String? = nil, owner: Owner, file: StaticString = #fileID,
    line: UInt = #line, _ handler: @escaping @MainActor (Owner, Self) throws -> Void
  ) -> Registration {
    add(
      makeEntry(
        events, id: id,
        primary: .anchoredSync { try handler(unsafeDowncast($0, to: Owner.self), Self.typed($1)) },
        anchor: owner, file: file, line: line))
  }

  /// The async form of ``on(_:id:owner:file:line:_:)-(_,_,_,_,_,(Owner,Self)->Void)``: the
  /// owner is held strongly only while the task runs.
  @discardableResult
  public func on<Owner: AnyObject>(
    _ events: ControlEvents, id: String? = nil, owner: Owner, file: StaticString = #fileID,
    line: UInt = #line, _ handler: @escaping @MainActor (Owner, Self) async throws -> Void
  ) -> Registration {
    add(
      makeEntry(
        events, id: id,
        primary: .anchoredAsync {
          try await handler(unsafeDowncast($0, to: Owner.self), Self.typed($1))
        }, anchor: owner, file: file, line: line))
  }

  /// Runs `handler` while the flag `flag` is enabled, and `fallback` while it is disabled,
  /// rolled back or unknown (no fallback: outcome `skipped(flagOff)`). The provider is asked
  /// at every fire, so a rollback takes effect at the next fire. Outcomes carry the flag key
  /// and the variant served (`on`/`off`).
  ///
  /// ```swift
  /// pay.on(.touchUpInside, flag: "new-checkout", fallback: { _ in legacyPay() }) { _ in
  ///   try newPay()
  /// }
  /// ```
  @discardableResult
  public func on(
    _ events: ControlEvents, id: String? = nil, flag: String,
    fallback: (@MainActor (Self) throws -> Void)? = nil, file: StaticString = #fileID,
    line: UInt = #line, _ handler: @escaping @MainActor (Self) throws -> Void
  ) -> Registration {
    add(
      makeEntry(
        events, id: id, flag: flag, primary: .sync { try handler(Self.typed($0)) },
        fallback: fallback.map { fallback in .sync { try fallback(Self.typed($0)) } },
        file: file, line: line))
  }

  /// The async form of the flag-gated handler: primary and fallback are async.
  @discardableResult
  public func on(
    _ events: ControlEvents, id: String? = nil, flag: String,
    fallback: (@MainActor (Self) async throws -> Void)? = nil, file: StaticString = #fileID,
    line: UInt = #line, _ handler: @escaping @MainActor (Self) async throws -> Void
  ) -> Registration {
    add(
      makeEntry(
        events, id: id, flag: flag, primary: .async { try await handler(Self.typed($0)) },
        fallback: fallback.map { fallback in .async { try await fallback(Self.typed($0)) } },
        file: file, line: line))
  }

  /// Removes closure handlers registered with `id` from `events`, by intersection: an
  /// entry keeps the events not named (removing `.touchDown` from `[.touchDown,
  /// .touchUpInside]` leaves `.touchUpInside`) and is removed when none remain. Target-actions
  /// are a separate namespace and are never touched. Removing what was never added does
  /// nothing.
  public func removeAction(identifiedBy id: String, for events: ControlEvents) {
    subtract(events) { $0.kind == .closure && $0.identifier == id }
  }
}
