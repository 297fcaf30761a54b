import FilterDSL

/// A schema as `flt --schema` prints it: one field per line, nested fields indented, `?` on
/// fields that are null or missing in some records, and the values of enum-like text fields.
///
/// ```
/// model       string
/// price       int
/// camera      record
///   zoom      double?
/// tags        list<string>
/// ```
public enum SchemaOutline {
  /// The fields of `schema`, one per line, nested records indented (`flt --schema`); `sampled` says
  /// the types come from the first records only; `nullMarkers` are the file's null markers
  /// (``DataReader/nullMarkers``), null in its text fields too.
  public static func text(_ schema: Schema, sampled: Bool = false, nullMarkers: [String] = [])
    -> String
  {
    var rows: [(name: String, type: String, note: String)] = []
    collect(schema, indent: "", into: &rows)
    let width = rows.map { DisplayWidth.of($0.name) }.max() ?? 0
    var out = ""
    for row in rows {
      let pad = String(repeating: " ", count: width - DisplayWidth.of(row.name) + 2)
      out += row.name + pad + row.type + (row.note.isEmpty ? "" : "  " + row.note) + "\n"
    }
    if !nullMarkers.isEmpty {
      let list = nullMarkers.map { "'\($0)'" }.joined(separator: ", ")
      out +=
        "(\(list) read as null in every field: the file's null marker"
        + (nullMarkers.count == 1 ? "" : "s") + "; --null names others)\n"
    }
    if sampled {
      out += "(inferred from the first \(DataReader.sampleRecords) records)\n"
    }
    return out
  }

  private static func collect(
    _ schema: Schema, indent: String, into rows: inout [(name: String, type: String, note: String)]
  ) {
    // Nested records are indented by two spaces a level; the reader nests at most a few
    // hundred levels, and this recursion follows the schema, not the data.
    for field in schema.fields {
      var note = ""
      // Names and values come from the data: shown so that none can reach the terminal
      // as a control sequence.
      if let values = field.knownValues {
        let shown = values.map(TableText.printable).joined(separator: ", ")
        note = "(\(values.count) value\(values.count == 1 ? "" : "s"): \(shown))"
      }
      rows.append(
        (
          indent + TableText.printable(field.name),
          name(field.type) + (field.isOptional ? "?" : ""), note
        ))
      if case .record(let inner) = field.type {
        collect(inner, indent: indent + "  ", into: &rows)
      } else if case .list(.record(let inner)) = field.type {
        collect(inner, indent: indent + "  ", into: &rows)
      }
    }
  }

  /// The short name of a type: `int`, `list<string>`.
  public static func name(_ type: ValueType) -> String {
    switch type {
    case .bool: "bool"
    case .int: "int"
    case .double: "double"
    case .decimal: "decimal"
    case .string: "string"
    case .date: "date"
    case .dateTime: "datetime"
    case .duration: "duration"
    case .list(let element): "list<\(name(element))>"
    case .record: "record"
    case .null: "null"
    }
  }
}
