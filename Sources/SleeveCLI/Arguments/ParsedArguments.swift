/// The options and arguments given to a command, by name, before their values are checked.
struct ParsedArguments: Equatable, Sendable {
  /// Option values by long name (the last one wins when repeated).
  var values: [String: String] = [:]
  /// Flags given, by long name.
  var flags: Set<String> = []
  /// Positional arguments, in order.
  var arguments: [String] = []

  /// Whether flag `name` was given.
  func has(_ name: String) -> Bool { flags.contains(name) }

  /// The value of option `name`, if given.
  subscript(name: String) -> String? { values[name] }
}
