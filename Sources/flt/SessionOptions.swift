import FilterDSL
import FilterData
import FilterSession

/// The command lines of `flt run SCRIPT.flt` and `flt repl [FILE...]`: files, and parameters
/// (`-p budget=1000`) bound before anything runs. A script's own `let budget = ...` is then a
/// default that the command line overrides.
struct SessionOptions {
  var files: [String] = []
  var parameters: [ParameterValue.Binding] = []
  /// `--color auto|always|never`.
  var color = ColorChoice.auto
  /// `--max-memory SIZE|none`: the session's memory limit for loads (as `set memory`).
  var memory: String?

  /// A session writing to standard output, warning on standard error, under the memory limit
  /// and with the parameters given (they win over the `let`s of the scripts run first).
  ///
  /// The process exits after the session: its memory goes back at once, while freeing a
  /// million loaded records one by one takes a tenth of the run. So it is never freed.
  func session() -> Session {
    let session = Session(output: OutputSink(descriptor: 1), warn: Command.writeError)
    if let memory { session.settings.memoryLimit = ProcessMemory.bytes(in: memory) }
    for (name, value) in parameters { session.bind(parameter: name, to: value) }
    _ = Unmanaged.passRetained(session)
    return session
  }

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
      case "--max-memory":
        options.memory = try Options.memory(rest.popFirst(), argument)
      case _ where argument.hasPrefix("--max-memory="):
        options.memory = try Options.memory(String(argument.dropFirst(13)), "--max-memory")
      case _ where argument.hasPrefix("-") && argument != "-":
        let suggestion = Suggestion.closest(
          to: argument, among: ["--param", "--color", "--max-memory"])
        throw Options.UsageError(
          message: "unknown option \(argument)\(suggestion.map { "; did you mean \($0)?" } ?? "")"
            + " (scripts and the REPL take -p NAME=VALUE, --color WHEN and --max-memory SIZE)")
      default:
        options.files.append(argument)
      }
    }
    return options
  }
}
