import Foundation

/// The fish completion script (`sleeve completions fish`). Recorded values come from
/// `sleeve __complete` through a command substitution, one candidate per line, never evaluated.
enum FishCompletion {
  /// The script for `model`.
  static func script(_ model: CompletionModel) -> String {
    var text = """
      # fish completion for sleeve. Load it with:  sleeve completions fish | source
      # or save it as ~/.config/fish/completions/sleeve.fish

      # The value of --db on the command line being completed, if any.
      function __sleeve_db
          set -l next 0
          for token in (commandline -opc)
              if test $next = 1
                  echo -- $token
                  return
              end
              switch $token
                  case --db
                      set next 1
                  case '--db=*'
                      string replace -- --db= '' $token
                      return
              end
          end
      end

      # The recorded values of $argv[1] (sessions, handlers, flags).
      function __sleeve_values
          set -l db (__sleeve_db)
          if test -n "$db"
              command sleeve __complete $argv[1] --db $db 2>/dev/null
          else
              command sleeve __complete $argv[1] 2>/dev/null
          end
      end

      complete -c sleeve -f
      complete -c sleeve -n __fish_use_subcommand -l help -s h -d 'Show help information.'
      complete -c sleeve -n __fish_use_subcommand -l version -d 'Show the version.'
      complete -c sleeve -n __fish_use_subcommand -a help -d 'Show help for a subcommand.'

      """
    for option in model.global {
      text += "complete -c sleeve -n __fish_use_subcommand" + flags(option) + "\n"
    }
    for command in model.subcommands {
      text +=
        "complete -c sleeve -n __fish_use_subcommand -a \(command.name) -d \(quoted(command.abstract))\n"
    }
    let names = model.subcommands.map(\.name).joined(separator: " ")
    text += "complete -c sleeve -n '__fish_seen_subcommand_from help' -a '\(names)'\n"
    for command in model.subcommands {
      let condition = quoted("__fish_seen_subcommand_from \(command.name)")
      for option in command.options {
        text += "complete -c sleeve -n \(condition)" + flags(option) + "\n"
      }
      switch command.arguments {
      case .recorded(let kind, _)?:
        text += "complete -c sleeve -n \(condition) -a '(__sleeve_values \(kind))'\n"
      case .files?:
        text += "complete -c sleeve -n \(condition) -F\n"
      default:
        break
      }
    }
    return text
  }

  /// ` -l name [-s h] [-r -F | -x -a …] -d 'help'` for one option.
  private static func flags(_ option: CompletionModel.Option) -> String {
    var text = " -l \(option.name)"
    if option.name == "help" { text += " -s h" }
    switch option.values {
    case nil: break
    case .none?: text += " -x"
    case .files?: text += " -r -F"
    case .choices(let words)?: text += " -x -a " + quoted(words.joined(separator: " "))
    case .recorded(let kind, let fixed)?:
      text += " -x -a " + quoted((fixed + ["(__sleeve_values \(kind))"]).joined(separator: " "))
    }
    return text + " -d " + quoted(option.help)
  }

  /// `text` in fish single quotes (backslash and quote escaped).
  static func quoted(_ text: String) -> String {
    "'"
      + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
      + "'"
  }
}
