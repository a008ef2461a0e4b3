/// An option that takes a value, declared once and typed: its spec (name, placeholder, help,
/// what completes its value) and the parser of its value.
///
/// A command lists the specs of its declarations in its ``CommandSpec`` and reads values
/// through the declarations (``CommandContext/value(_:in:)``), never by name, so a misspelt
/// option does not compile, and help, usage and the completion scripts are generated from
/// the same declarations.
struct Option<Value>: Sendable {
  /// The name, placeholder, help and completion source.
  let spec: OptionSpec
  /// Turns the text given into a value, or says in one line why it is wrong.
  let parse: @Sendable (String) throws(ValueError) -> Value

  /// An option `--name <value>` whose text `parse` reads.
  init(
    _ name: String, short: Character? = nil, value placeholder: String, help: String,
    completion: CompletionModel.Values = .none, listedInHelp: Bool = true,
    parse: @escaping @Sendable (String) throws(ValueError) -> Value
  ) {
    spec = OptionSpec(
      name, short: short, value: placeholder, help: help, listedInHelp: listedInHelp,
      completion: completion)
    self.parse = parse
  }
}

extension Option where Value == String {
  /// An option whose value is free text (a name, a key, a path).
  init(
    _ name: String, short: Character? = nil, value placeholder: String, help: String,
    completion: CompletionModel.Values = .none, listedInHelp: Bool = true
  ) {
    self.init(
      name, short: short, value: placeholder, help: help, completion: completion,
      listedInHelp: listedInHelp
    ) { text throws(ValueError) in text }
  }
}

extension Option where Value: CaseIterable & RawRepresentable & Sendable, Value.RawValue == String {
  /// An option whose value is one of `Value`'s cases by raw value; its completion offers them.
  init(
    _ name: String, choosing type: Value.Type = Value.self, value placeholder: String,
    help: String, listedInHelp: Bool = true
  ) {
    self.init(
      name, value: placeholder, help: help,
      completion: .choices(Value.allCases.map(\.rawValue)), listedInHelp: listedInHelp
    ) { text throws(ValueError) in try ValueParsers.choice(text, of: Value.self) }
  }
}

/// An option without a value (`--exact`), declared once: reading it needs the declaration
/// (``ParsedArguments/has(_:)``), not its name.
struct Flag: Sendable {
  /// Its name and help.
  let spec: OptionSpec

  /// A flag `--name`.
  init(_ name: String, short: Character? = nil, help: String, listedInHelp: Bool = true) {
    spec = OptionSpec(name, short: short, help: help, listedInHelp: listedInHelp)
  }
}

extension Option {
  /// The value given for this option in `arguments` (the last, when repeated), parsed; `nil`
  /// when it was not given. A value the parser refuses is a ``UsageError`` naming the option,
  /// the value, the reason and `command`.
  func value(in arguments: ParsedArguments, command: String) throws -> Value? {
    guard let text = arguments.text(of: self) else { return nil }
    return try parsed(text, command: command)
  }

  /// Every value given for this option, parsed, in order.
  func values(in arguments: ParsedArguments, command: String) throws -> [Value] {
    try arguments.texts(of: self).map { try parsed($0, command: command) }
  }

  private func parsed(_ text: String, command: String) throws -> Value {
    do {
      return try parse(text)
    } catch {
      throw UsageError.invalidValue(text, for: spec, in: command, because: error.reason)
    }
  }
}

extension CommandContext {
  /// The value of `option` (the last given), parsed; `nil` when it was not given. A value its
  /// parser refuses is a ``UsageError`` naming the option, the value and the reason.
  func value<Value>(_ option: Option<Value>, in arguments: ParsedArguments) throws -> Value? {
    try option.value(in: arguments, command: command.name)
  }

  /// Every value given for `option`, parsed, in order.
  func values<Value>(_ option: Option<Value>, in arguments: ParsedArguments) throws -> [Value] {
    try option.values(in: arguments, command: command.name)
  }
}

extension CommandContext {
  /// The text of `option` read by `parse` rather than by the option's own parser: for a value
  /// whose reading needs what only the run knows (a selection on top of the shared filter).
  /// `nil` when it was not given; a value `parse` refuses is a ``UsageError`` as for
  /// ``value(_:in:)-(Option<Value>,_)``.
  func value<Value>(
    _ option: Option<String>, in arguments: ParsedArguments,
    _ parse: (String) throws(ValueError) -> Value
  ) throws -> Value? {
    guard let text = arguments.text(of: option) else { return nil }
    do {
      return try parse(text)
    } catch {
      throw UsageError.invalidValue(
        text, for: option.spec, in: command.name, because: error.reason)
    }
  }
}

extension CommandSpec {
  /// Whether the command lists the option `spec` declares.
  func accepts(_ spec: OptionSpec) -> Bool { option(named: spec.name) != nil }
}
