import FilterDSL

/// The command lines of `flt run SCRIPT.flt` and `flt repl [FILE...]`: files, and parameters
/// (`-p budget=1000`) bound before anything runs. A script's own `let budget = ...` is then a
/// default that the command line overrides.
struct SessionOptions {
  var files: [String] = []
  var parameters: [ParameterValue.Binding] = []
  /// `--color auto|always|never`.
  var color = ColorChoice.auto

  /// Reads `arguments` (after `run` or `repl`); options may come anywhere, `--` ends them.
  static func parse(_ arguments: [String]) throws(Options.UsageError) -> SessionOptions {
    var options = SessionOptions()
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--":
        options.files += rest
        return options
      case "-p", "--param":
        guard let text = rest.popFirst() else {
          throw Options.UsageError(message: "\(argument) needs name=value, as in -p budget=1000")
        }
        options.parameters.append(try ParameterValue.binding(text))
      case _ where argument.hasPrefix("--param="):
        options.parameters.append(try ParameterValue.binding(String(argument.dropFirst(8))))
      case "--color", "--colour":
        guard let text = rest.popFirst() else {
          throw Options.UsageError(message: "\(argument) needs auto, always or never")
        }
        options.color = try Options.color(text)
      case _ where argument.hasPrefix("--color=") || argument.hasPrefix("--colour="):
        options.color = try Options.color(String(argument.drop { $0 != "=" }.dropFirst()))
      case _ where argument.hasPrefix("-") && argument != "-":
        let suggestion = Suggestion.closest(to: argument, among: ["--param", "--color"])
        throw Options.UsageError(
          message: "unknown option \(argument)\(suggestion.map { "; did you mean \($0)?" } ?? "")"
            + " (scripts and the REPL take -p NAME=VALUE and --color WHEN)")
      default:
        options.files.append(argument)
      }
    }
    return options
  }
}
