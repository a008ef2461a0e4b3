/// The options and arguments given to a command, before their values are checked.
///
/// Options are read only through their declarations (``Option``, ``Flag``, ``OptionSpec``):
/// no accessor takes a name, so a misspelt option in code does not compile.
struct ParsedArguments: Equatable, Sendable {
  /// Option values by long name (the last one wins when repeated).
  private var values: [String: String] = [:]
  /// Every value of each option, by long name, in the order given (for an option that may be
  /// repeated, such as `lint --disable`).
  private var repeated: [String: [String]] = [:]
  /// Flags given, by long name.
  private var flags: Set<String> = []
  /// Positional arguments, in order.
  var arguments: [String] = []

  /// Records `value` for `option`: the last one wins in ``text(of:)``, and ``texts(of:)``
  /// keeps them all.
  mutating func set(_ option: OptionSpec, _ value: String) {
    values[option.name] = value
    repeated[option.name, default: []].append(value)
  }

  /// Records that the flag `option` was given.
  mutating func insert(flag option: OptionSpec) { flags.insert(option.name) }

  /// Every option given a value, by name, with its values in the order given (what the parser
  /// moves from before the subcommand to the subcommand's options).
  var givenValues: [(name: String, values: [String])] {
    repeated.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
  }

  /// Whether `flag` was given.
  func has(_ flag: Flag) -> Bool { flags.contains(flag.spec.name) }

  /// The text given for `option` (the last, when repeated), before it is parsed.
  func text<Value>(of option: Option<Value>) -> String? { values[option.spec.name] }

  /// Every text given for `option`, in order.
  func texts<Value>(of option: Option<Value>) -> [String] { repeated[option.spec.name] ?? [] }

  /// Whether the option or flag `spec` declares was given (with any value).
  func isGiven(_ spec: OptionSpec) -> Bool {
    flags.contains(spec.name) || values[spec.name] != nil
  }

  /// The options of `specs` that were given, in the order of `specs`.
  func given(among specs: [OptionSpec]) -> [OptionSpec] { specs.filter(isGiven) }

  /// The first by name of the options of `specs` given here that `allowed` does not list (an
  /// option an action does not take), or `nil`.
  func firstGiven(of specs: [OptionSpec], except allowed: [OptionSpec]) -> OptionSpec? {
    let names = Set(allowed.map(\.name))
    return given(among: specs).filter { !names.contains($0.name) }.min { $0.name < $1.name }
  }
}
