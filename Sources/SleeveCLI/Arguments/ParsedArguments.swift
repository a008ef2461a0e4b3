/// The options and arguments given to a command, by name, before their values are checked.
struct ParsedArguments: Equatable, Sendable {
  /// Option values by long name (the last one wins when repeated).
  var values: [String: String] = [:]
  /// Every value of each option, by long name, in the order given (for an option that may be
  /// repeated, such as `lint --disable`).
  var repeated: [String: [String]] = [:]
  /// Flags given, by long name.
  var flags: Set<String> = []
  /// Positional arguments, in order.
  var arguments: [String] = []

  /// Whether flag `name` was given.
  func has(_ name: String) -> Bool { flags.contains(name) }

  /// The value of option `name`, if given.
  subscript(name: String) -> String? { values[name] }

  /// Every value option `name` was given, in order (empty when it was not).
  func all(_ name: String) -> [String] { repeated[name] ?? [] }

  /// Records `value` for option `name`: the last one wins in ``values``, and ``repeated``
  /// keeps them all.
  mutating func set(_ name: String, _ value: String) {
    values[name] = value
    repeated[name, default: []].append(value)
  }
}
