/// The zsh completion script (`sleeve completions zsh`): works sourced after `compinit`, or
/// saved as `_sleeve` on `$fpath`. Recorded values are added with `compadd`, which quotes them;
/// they are never evaluated.
enum ZshCompletion {
  /// The script for `model`.
  static func script(_ model: CompletionModel) -> String {
    let names = model.subcommands.map(\.name)
    var text = """
      #compdef sleeve
      # zsh completion for sleeve. Load it with:  source <(sleeve completions zsh)
      # (after compinit), or save it as _sleeve in a directory on $fpath.

      # _sleeve_values KIND DB: the recorded values of KIND (sessions, handlers, flags).
      _sleeve_values() {
        if [[ -n $2 ]]; then
          command sleeve __complete "$1" --db "$2" 2>/dev/null
        else
          command sleeve __complete "$1" 2>/dev/null
        fi
      }

      _sleeve() {
        local sub= db= word prev=${words[CURRENT-1]}
        local -i i positional=0
        local -a values
        for (( i = 2; i < CURRENT; i++ )); do
          word=${words[i]}
          case $word in
            --db) db=${words[i+1]}; (( i++ )) ;;
            --db=*) db=${word#--db=} ;;
            --*=*) ;;
            \(model.valueOptions.map { "--" + $0 }.joined(separator: "|"))) (( i++ )) ;;
            -*) ;;
            *) if [[ -z $sub ]]; then sub=$word; else (( positional++ )); fi ;;
          esac
        done
        case $prev in

      """
    text += model.valueCases(completing: completion)
    text += """
        esac
        if [[ -z $sub ]]; then
          compadd -- \((names + ["help"] + model.global.map { "--" + $0.name } + ["--help", "--version"]).joined(separator: " "))
          return
        fi
        if [[ ${words[CURRENT]} == -* ]]; then
          case $sub in

      """
    for command in model.subcommands {
      text +=
        "      \(command.name)) compadd -- "
        + command.options.map { "--" + $0.name }.joined(separator: " ") + " ;;\n"
    }
    text += """
          esac
          return
        fi
        case $sub in
          help) (( positional == 0 )) && compadd -- \(names.joined(separator: " ")) ;;

      """
    for command in model.subcommands {
      guard let values = command.arguments else { continue }
      let guardFirst = values == .files ? "" : "(( positional == 0 )) && "
      text += "    \(command.name)) \(guardFirst){ \(completion(values)); } ;;\n"
    }
    text += """
        esac
      }

      if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then
        _sleeve "$@"
      else
        compdef _sleeve sleeve
      fi

      """
    return text
  }

  /// The zsh commands that complete `values`.
  private static func completion(_ values: CompletionModel.Values) -> String {
    switch values {
    case .none: ":"
    case .choices(let words): "compadd -- " + words.joined(separator: " ")
    case .files: "_files"
    case .recorded(let kind, let fixed):
      (fixed.isEmpty ? "" : "compadd -- " + fixed.joined(separator: " ") + "; ")
        + "values=(${(f)\"$(_sleeve_values \(kind) \"$db\")\"}); compadd -- $values"
    }
  }
}
