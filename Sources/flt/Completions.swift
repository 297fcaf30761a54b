/// `flt --completions bash|zsh|fish`: a completion script for the shell, made from
/// ``Options/table``: every option (with its description where the shell shows one), the
/// values of options that take a few words (`--format`), files where a file goes, and the
/// subcommands as the first word.
enum Completions {
  /// The subcommands, completed as the first word.
  static let subcommands = ["run", "repl", "check", "parse", "ast", "tokens", "sql"]

  static func script(for shell: String) -> String {
    switch shell {
    case "zsh": zsh
    case "fish": fish
    default: bash
    }
  }

  /// Every name of every option: `-c`, `--count`, ...
  private static var names: [String] {
    Options.table.flatMap { ($0.short.map { [$0] } ?? []) + [$0.long] }
  }

  private static func names(_ option: OptionSpec) -> String {
    ((option.short.map { [$0] } ?? []) + [option.long]).joined(separator: "|")
  }

  static var bash: String {
    var cases: [String] = []
    for option in Options.table where option.value != nil {
      switch option.completes {
      case .words(let words):
        cases.append(
          "    \(names(option))) COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")); return ;;"
        )
      case .files:
        cases.append("    \(names(option))) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;")
      case .nothing:
        cases.append("    \(names(option))) return ;;")
      }
    }
    return """
      # bash completion for flt: eval "$(flt --completions bash)"
      _flt() {
        local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
        COMPREPLY=()
        case "$prev" in
      \(cases.joined(separator: "\n"))
        esac
        if [[ "$cur" == -* ]]; then
          COMPREPLY=($(compgen -W "\(names.joined(separator: " "))" -- "$cur"))
          return
        fi
        if [[ $COMP_CWORD -eq 1 ]]; then
          COMPREPLY=($(compgen -W "\(subcommands.joined(separator: " "))" -- "$cur"))
        fi
        COMPREPLY+=($(compgen -f -- "$cur"))
      }
      complete -o filenames -F _flt flt
      """
  }

  static var zsh: String {
    var lines: [String] = []
    for option in Options.table {
      // zsh's spec syntax: [description], :message:action; brackets and colons escaped.
      let help = option.help.joined(separator: " ").replacing("[", with: "\\[")
        .replacing("]", with: "\\]").replacing(":", with: "\\:").replacing("'", with: "")
      let exclusive =
        option.short.map { "'(\($0) \(option.long))'{\($0),\(option.long)}" }
        ?? "'\(option.long)"
      let head = option.short == nil ? exclusive + "[\(help)]" : exclusive + "'[\(help)]"
      var action = ""
      if let value = option.value {
        switch option.completes {
        case .words(let words): action = ":\(value):(\(words.joined(separator: " ")))"
        case .files: action = ":\(value):_files"
        case .nothing: action = ":\(value): "
        }
      }
      lines.append("  " + head + action + "' \\")
    }
    return """
      #compdef flt
      # zsh completion for flt: flt --completions zsh > "${fpath[1]}/_flt"
      _arguments -s \\
      \(lines.joined(separator: "\n"))
        '1: :(\(subcommands.joined(separator: " ")))' \\
        '*:file:_files'
      """
  }

  static var fish: String {
    var lines = [
      "# fish completion for flt: flt --completions fish > ~/.config/fish/completions/flt.fish",
      "complete -c flt -n __fish_use_subcommand -a '\(subcommands.joined(separator: " "))'",
    ]
    for option in Options.table {
      var line = "complete -c flt"
      if let short = option.short { line += " -s " + short.dropFirst() }
      line += " -l " + option.long.dropFirst(2)
      switch (option.value, option.completes) {
      case (nil, _): break
      case (_, .words(let words)): line += " -x -a '\(words.joined(separator: " "))'"
      case (_, .files): line += " -r -F"
      case (_, .nothing): line += " -x"
      }
      let help = option.help.joined(separator: " ").replacing("'", with: "\\'")
      lines.append(line + " -d '\(help)'")
    }
    return lines.joined(separator: "\n")
  }
}
