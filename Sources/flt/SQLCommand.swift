import FilterDSL
import FilterData
import FilterDatabase
import FilterSQL

/// `flt sql [--dialect D] [--table NAME] [--format text|json] [-p N=V] QUERY FILE|DATABASE`:
/// prints the statement a query runs in a database, with its parameters and what flt would
/// still do on the rows (the residual).
struct SQLCommand {
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
  static func parse(_ arguments: [String]) throws(Options.UsageError) -> SQLCommand {
    var command = SQLCommand()
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

  /// Prints the translation; returns the exit status.
  func run() -> Int32 {
    do {
      let (dialect, table) = try target()
      let (types, values) = try ParameterValue.typed(parameters)
      let source = SourceText(query, name: "<query>")
      let bound = try FilterEnvironment(RecordType.dynamic(table.schema), parameters: types)
        .check(source).get(source)
      let sql = SQLTranslator(table: table, dialect: dialect).translate(bound, parameters: values)
      StandardStreams.print(json ? Self.json(sql, inline: inline) : sql.text(inline: inline))
      return Command.Status.success
    } catch {
      return Command.fail(error)
    }
  }

  /// The dialect and the table: a database's own, or one named after a data file holding its
  /// fields (inferred from the whole file).
  private func target() throws -> (SQLDialect, SQLTable) {
    if FilterCommand.isDatabase(path) {
      let (database, table) = try FilterCommand.open(path, table: table)
      return (dialect ?? database.dialect, table)
    }
    let reader = try DataReader(path: path == "-" ? nil : path, format: nil, options: ReadOptions())
    try reader.inferWhole()
    let base = path.split(separator: "/").last.map(String.init) ?? "records"
    let name = table ?? String(base.prefix { $0 != "." })
    return (dialect ?? .postgresql, SQLTable(name: name, schema: reader.schema))
  }

  /// `{"sql": ..., "parameters": [...], "residual": ... or null}` (with `inline`, the values
  /// written into the statement and no parameters).
  static func json(_ sql: SQLTranslation, inline: Bool = false) -> String {
    let parameters = sql.select.parameters.map { parameter -> String in
      switch parameter {
      case .null: "null"
      case .int(let i): String(i)
      case .double(let d): ValueText.json(.double(d))
      case .text(let text): ValueText.json(.string(text))
      }
    }
    let text = inline ? sql.select.inlined(sql.dialect) : sql.select.text
    return "{\"sql\": \(ValueText.json(.string(text))), "
      + "\"parameters\": [\(inline ? "" : parameters.joined(separator: ", "))], "
      + "\"residual\": \(sql.residual.map { ValueText.json(.string($0.description)) } ?? "null")}"
  }
}
