import FilterSQL

/// The arguments of `flt sql` (see ``SQLCommand``).
struct SQLOptions {
  var dialect: SQLDialect?
  var table: String?
  var json = false
  /// `--inline`: the values written into the statement as literals, for pasting into psql or
  /// sqlite3.
  var inline = false
  var parameters: [ParameterValue.Binding] = []
  var query = ""
  var path = ""

  static let usage = """
    usage: flt sql [--dialect postgresql|sqlite] [--table NAME] [--format text|json]
                   [--inline] [-p NAME=VALUE] QUERY FILE|DATABASE
    prints the statement QUERY runs as in a database, its parameters, and what flt checks on
    the rows that come back; with --inline, the values written in as quoted literals, to
    paste into psql or sqlite3. The fields are those of FILE (the table is named after it) or of
    the table NAME of DATABASE (.db, .sqlite, .sqlite3).
    """

  /// Reads the arguments after `sql`.
  static func parse(_ arguments: [String]) throws(Options.UsageError) -> SQLOptions {
    var command = SQLOptions()
    var positional: [String] = []
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      func value() throws(Options.UsageError) -> String {
        guard let next = rest.popFirst() else {
          throw Options.UsageError(message: "\(argument) needs a value")
        }
        return next
      }
      switch argument {
      case "--dialect":
        let name = try value()
        guard let dialect = SQLDialect(rawValue: name) else {
          throw Options.UsageError(
            message: "unknown dialect '\(name)'; use postgresql or sqlite")
        }
        command.dialect = dialect
      case "--table": command.table = try value()
      case "--format", "-f":
        let format = try value()
        guard format == "text" || format == "json" else {
          throw Options.UsageError(message: "flt sql prints text or json, not '\(format)'")
        }
        command.json = format == "json"
      case "-p", "--param": command.parameters.append(try ParameterValue.binding(try value()))
      case "--inline": command.inline = true
      case "--": positional += rest
      default:
        guard !argument.hasPrefix("-") || argument == "-" else {
          throw Options.UsageError(message: "unknown option \(argument) of flt sql\n\(usage)")
        }
        positional.append(argument)
      }
    }
    guard positional.count == 2 else {
      throw Options.UsageError(message: "flt sql takes a query and a file or database\n\(usage)")
    }
    command.query = positional[0]
    command.path = positional[1]
    return command
  }
}
