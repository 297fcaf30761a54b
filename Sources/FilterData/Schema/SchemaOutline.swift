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
  /// (``DataReader/nullMarkers``), null in its text fields too. With a `width` (a terminal's),
  /// a long list of values is wrapped between words, its lines lined up under its first.
  public static func text(
    _ schema: Schema, sampled: Bool = false, nullMarkers: [String] = [], width: Int? = nil
  ) -> String {
    var rows: [(name: String, type: String, note: String)] = []
    collect(schema, indent: "", into: &rows)
    let nameWidth = rows.map { DisplayWidth.of($0.name) }.max() ?? 0
    var out = ""
    for row in rows {
      let pad = String(repeating: " ", count: nameWidth - DisplayWidth.of(row.name) + 2)
      let start = row.name + pad + row.type + (row.note.isEmpty ? "" : "  ")
      out += start + wrapped(row.note, from: DisplayWidth.of(start), width: width) + "\n"
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

  /// `text` starting at column `column`, broken between words so that no line passes
  /// `width`; the lines after the first start at `column` too (at 4 when that leaves fewer than
  /// 20 columns). A word wider than a line gets a line of its own.
  static func wrapped(_ text: String, from column: Int, width: Int?) -> String {
    guard let width, column + DisplayWidth.of(text) > width else { return text }
    let indent = width - column >= 20 ? column : 4
    var (out, used) = ("", column)
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
      let size = DisplayWidth.of(String(word))
      if out.isEmpty {
        (out, used) = (String(word), column + size)
      } else if used + 1 + size <= width {
        out += " " + word
        used += 1 + size
      } else {
        out += "\n" + String(repeating: " ", count: indent) + word
        used = indent + size
      }
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
      } else if field.type == .any {
        note = "(mixed: lists, objects and other values, each of its kind)"
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
    guard case .list(let element) = type else { return type.kindName }
    return "list<\(name(element))>"
  }
}
