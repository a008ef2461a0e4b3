/// What the completion scripts offer, read from the commands' specs (so a new command or option
/// is completed without touching the scripts): subcommands, their options, and each value's kind.
struct CompletionModel {
  /// What a value is completed from.
  enum Values: Equatable, Sendable {
    /// Nothing (a number, a duration, free text).
    case none
    /// A fixed list (`--format`, `--by`, `--color`).
    case choices([String])
    /// The recorded values of `kind` (`sessions`, `handlers`, `flags`), read at completion time
    /// from the database with `sleeve __complete`; `fixed` are offered too (`last`, `all`).
    case recorded(String, fixed: [String])
    /// File names.
    case files
  }

  /// One option of a subcommand.
  struct Option {
    let name: String
    let help: String
    /// `nil` for a flag.
    let values: Values?
  }

  /// One subcommand.
  struct Subcommand {
    let name: String
    let abstract: String
    let options: [Option]
    /// What its positional arguments complete to (`nil`: none).
    let arguments: Values?
  }

  let subcommands: [Subcommand]
  /// The options taken before the subcommand (`--db`, `--format`).
  let global: [Option]

  /// The model of `specs` (hidden commands left out).
  init(specs: [CommandSpec]) {
    subcommands = specs.filter(\.listedInHelp).map { spec in
      Subcommand(
        name: spec.name, abstract: spec.abstract,
        options: spec.options.map { Self.option($0) },
        arguments: spec.argumentCompletion)
    }
    global = ArgumentParser.globalOptions.map { Self.option($0) }
  }

  /// Every option name that takes a value, in any subcommand (the scripts skip its value when
  /// looking for the subcommand).
  var valueOptions: [String] {
    var seen: Set<String> = []
    return (global + subcommands.flatMap(\.options)).filter { $0.values != nil }.map(\.name)
      .filter { seen.insert($0).inserted }
  }

  /// Each option that takes a value, in first-seen order, with each distinct completion of
  /// its value and the subcommands that have it (`""` stands for the top level): `--format`
  /// completes differently in `report` and `export`.
  var valueGroups: [(name: String, cases: [(values: Values, commands: [String])])] {
    var groups: [(name: String, cases: [(values: Values, commands: [String])])] = []
    let all =
      global.map { ("", $0) }
      + subcommands.flatMap { command in command.options.map { (command.name, $0) } }
    for (command, option) in all {
      guard let values = option.values else { continue }
      guard let group = groups.firstIndex(where: { $0.name == option.name }) else {
        groups.append((option.name, [(values, [command])]))
        continue
      }
      if let index = groups[group].cases.firstIndex(where: { $0.values == values }) {
        groups[group].cases[index].commands.append(command)
      } else {
        groups[group].cases.append((values, [command]))
      }
    }
    return groups
  }

  /// The option as the scripts complete it: its declared completion (``OptionSpec/completion``).
  private static func option(_ spec: OptionSpec) -> Option {
    Option(name: spec.name, help: spec.help, values: spec.value.map { _ in spec.completion })
  }
}

extension CompletionModel {
  /// The `case $prev in` arms bash and zsh share (the same `[[ … ]]` syntax): one arm per
  /// option that takes a value, choosing by subcommand when the values differ between
  /// commands; `completion` writes the shell's own statement that offers the values.
  func valueCases(completing completion: (Values) -> String) -> String {
    var text = ""
    for group in valueGroups {
      text += "    --\(group.name))\n"
      for (values, commands) in group.cases {
        guard group.cases.count > 1 else {
          text += "      \(completion(values))\n      return ;;\n"
          break
        }
        let condition = commands.map { "$sub == \"\($0)\"" }.joined(separator: " || ")
        text += "      if [[ \(condition) ]]; then \(completion(values)); return; fi\n"
      }
      if group.cases.count > 1 { text += "      return ;;\n" }
    }
    return text
  }
}
