import FilterDSL
import FilterData
import FilterDatabase
import FilterSQL

/// `flt sql [--dialect D] [--table NAME] [--format text|json] [-p N=V] QUERY FILE|DATABASE`:
/// prints the statement a query runs in a database, with its parameters and what flt would
/// still do on the rows (the residual).
struct SQLCommand {
  let options: SQLOptions
  var dialect: SQLDialect? { options.dialect }
  var table: String? { options.table }
  var path: String { options.path }

  /// Prints the translation; returns the exit status.
  func run() -> Int32 {
    do {
      let (dialect, table, database) = try target()
      let (types, values) = try ParameterValue.typed(options.parameters)
      let source = SourceText(options.query, name: "<query>")
      let bound = try FilterEnvironment(RecordType.dynamic(table.schema), parameters: types)
        .check(source).get(source)
      let sql = SQLTranslator(table: table, dialect: dialect).translate(bound, parameters: values)
      // A partitioned table's shards: what the coordinator sends each.
      let shards = (try? database?.shardStatements(sql.select)) ?? []
      if options.json {
        StandardStreams.print(Self.json(sql, inline: options.inline, shards: shards))
      } else {
        StandardStreams.print(
          ([sql.text(inline: options.inline)] + shards.map { "-- the coordinator sends " + $0 })
            .joined(separator: "\n"))
      }
      return Command.Status.success
    } catch {
      return Command.fail(error)
    }
  }

  /// The dialect and the table: a database's own, or one named after a data file holding its
  /// fields (inferred from the whole file).
  private func target() throws -> (SQLDialect, SQLTable, TableSource?) {
    if DatabaseTable.isDatabase(path) {
      let source = try TableSource.open(path, table: table)
      return (dialect ?? source.connection.dialect, source.table, source)
    }
    // (Any data source: a Parquet file or folder too, whose schema is its footer's.)
    let reader = try FileSource.open(path == "-" ? nil : path)
    try reader.inferWhole()
    let name = table ?? SQLTable.name(forFile: path)
    return (dialect ?? .postgresql, SQLTable(name: name, schema: reader.schema), nil)
  }

  /// `{"sql": ..., "parameters": [...], "residual": ... or null}` (with `inline`, the values
  /// written into the statement and no parameters); for a partitioned table asked by
  /// partition, `"count"` too (the statement a count runs, the filter's parameters being the
  /// first of the statement's), `"partitions"`, and `"shards"`: what the coordinator sends
  /// each for the rows.
  static func json(_ sql: SQLTranslation, inline: Bool = false, shards: [String] = []) -> String {
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
      + "\"residual\": \(sql.residual.map { ValueText.json(.string($0.description)) } ?? "null")"
      + (sql.partitions.isEmpty
        ? ""
        : ", \"count\": "
          + ValueText.json(.string(inline ? sql.count.inlined(sql.dialect) : sql.count.text))
          + ", \"partitions\": ["
          + sql.partitions.map { ValueText.json(.string("\($0.schema).\($0.name)")) }
          .joined(separator: ", ") + "], \"shards\": ["
          + shards.map { ValueText.json(.string($0)) }.joined(separator: ", ") + "]")
      + "}"
  }
}
