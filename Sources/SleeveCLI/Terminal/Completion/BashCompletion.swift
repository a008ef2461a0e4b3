/// The bash completion script (`sleeve completions bash`).
///
/// Recorded values (flag keys, handler names, session ids) come from `sleeve __complete` and are
/// never evaluated: they are matched with `[[ … == "$cur"* ]]` and inserted quoted with
/// `printf %q` (`compgen -W` would expand `$(…)` in a recorded name).
enum BashCompletion {
  /// The script for `model`.
  static func script(_ model: CompletionModel) -> String {
    let names = model.subcommands.map(\.name)
    var text = """
      # bash completion for sleeve. Load it with:  source <(sleeve completions bash)
      # or save it as ~/.local/share/bash-completion/completions/sleeve

      # _sleeve_values KIND DB: the recorded values of KIND (sessions, handlers, flags).
      _sleeve_values() {
        if [[ -n $2 ]]; then
          command sleeve __complete "$1" --db "$2" 2>/dev/null
        else
          command sleeve __complete "$1" 2>/dev/null
        fi
      }

      # _sleeve_add PREFIX: adds each line of standard input that starts with PREFIX, quoted.
      _sleeve_add() {
        local value
        while IFS= read -r value; do
          [[ $value == "$1"* ]] && COMPREPLY+=("$(printf '%q' "$value")")
        done
      }

      # _sleeve_words PREFIX WORD...: sets COMPREPLY to the WORDs that start with PREFIX.
      _sleeve_words() {
        local prefix=$1 word
        shift
        for word in "$@"; do
          [[ $word == "$prefix"* ]] && COMPREPLY+=("$word")
        done
      }

      _sleeve() {
        local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
        local sub="" db="" word i positional=0
        COMPREPLY=()
        for ((i = 1; i < COMP_CWORD; i++)); do
          word=${COMP_WORDS[i]}
          case $word in
            --db) db=${COMP_WORDS[i+1]}; ((i++)) ;;
            --db=*) db=${word#--db=} ;;
            --*=*) ;;
            \(model.valueOptions.map { "--" + $0 }.joined(separator: "|"))) ((i++)) ;;
            -*) ;;
            *) if [[ -z $sub ]]; then sub=$word; else ((positional++)); fi ;;
          esac
        done
        case $prev in

      """
    text += model.valueCases(completing: completion)
    text += """
        esac
        if [[ -z $sub ]]; then
          _sleeve_words "$cur" \((names + ["help"] + model.global.map { "--" + $0.name } + ["--help", "--version"]).joined(separator: " "))
          return
        fi
        if [[ $cur == -* ]]; then
          case $sub in

      """
    for command in model.subcommands {
      text +=
        "      \(command.name)) _sleeve_words \"$cur\" "
        + command.options.map { "--" + $0.name }.joined(separator: " ") + " ;;\n"
    }
    text += """
          esac
          return
        fi
        case $sub in
          help) ((positional == 0)) && _sleeve_words "$cur" \(names.joined(separator: " ")) ;;

      """
    for command in model.subcommands {
      guard let values = command.arguments else { continue }
      let guardFirst = values == .files ? "" : "((positional == 0)) && "
      text += "    \(command.name)) \(guardFirst){ \(completion(values)); } ;;\n"
    }
    text += """
        esac
        return 0
      }
      complete -F _sleeve sleeve

      """
    return text
  }

  /// The bash commands that complete `values` for the word `$cur`.
  private static func completion(_ values: CompletionModel.Values) -> String {
    switch values {
    case .none: ":"
    case .choices(let words): "_sleeve_words \"$cur\" " + words.joined(separator: " ")
    case .files: "mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")"
    case .recorded(let kind, let fixed):
      (fixed.isEmpty ? "" : "_sleeve_words \"$cur\" " + fixed.joined(separator: " ") + "; ")
        + "_sleeve_add \"$cur\" < <(_sleeve_values \(kind) \"$db\")"
    }
  }
}
