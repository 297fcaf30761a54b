import FilterDSL

/// One value of a record as output sees it: JSON text exactly as the file had it, or the text
/// of a CSV cell.
enum OutputCell {
  /// A JSON value's text.
  case json(ArraySlice<UInt8>)
  /// A CSV cell's text; `literal` when it is a number or boolean in a column of numbers or
  /// booleans, so JSON output writes it unquoted.
  case text(String, literal: Bool)
  /// An empty CSV cell, or a field the record lacks.
  case null

  /// The cell as text for CSV and table output: strings unquoted, null empty, lists and
  /// objects as compact JSON.
  var text: String {
    switch self {
    case .null: return ""
    case .text(let text, _): return text
    case .json(let raw):
      guard let first = raw.first else { return "" }
      if first == 0x22 {
        return raw.withUnsafeBufferPointer { bytes in
          var scanner = JSONScanner(bytes, from: 0, to: bytes.count)
          return (try? scanner.string()) ?? ""
        }
      }
      if raw.elementsEqual("null".utf8) { return "" }
      var out: [UInt8] = []
      JSONText.appendCompact(raw, to: &out)
      return String(decoding: out, as: UTF8.self)
    }
  }

  /// Whether the cell is null: an empty CSV cell (or one the reader reads as null), JSON's
  /// `null`, or a field the record lacks.
  var isNull: Bool {
    switch self {
    case .null: true
    case .json(let raw): raw.elementsEqual("null".utf8)
    case .text: false
    }
  }

  /// Whether the cell is a number (table output aligns numbers to the right).
  var isNumber: Bool {
    switch self {
    case .json(let raw): raw.first.map { $0 == 0x2D || ($0 >= 0x30 && $0 <= 0x39) } ?? false
    case .text(let text, let literal): literal && text != "true" && text != "false"
    case .null: false
    }
  }

  /// Appends the cell as JSON.
  func appendJSON(to out: inout [UInt8]) {
    switch self {
    case .null: out.append(contentsOf: "null".utf8)
    case .json(let raw): JSONText.appendCompact(raw, to: &out)
    case .text(let text, let literal):
      if literal {
        out.append(contentsOf: text.utf8)
      } else {
        JSONText.appendQuoted(text.utf8, to: &out)
      }
    }
  }
}

/// How the fields of a record are read back from its text for output, in the record's own
/// order: as a JSON object, or as a CSV row under its file's header. Each record points to
/// the one of its file, so records of several files can be written together.
final class RecordFields: Sendable {
  /// For CSV input: the header, and which columns hold numbers or booleans.
  let header: [String]?
  let literalColumns: [Bool]
  /// Which columns hold text: there a quoted empty cell (`""`) is empty text, not null.
  let textColumns: [Bool]
  /// The byte between cells (`,` or a tab), and which cells stand for null.
  let separator: UInt8
  /// Whether spaces at the start of a cell are skipped, as the reader skipped them.
  let skipsInitialSpace: Bool
  /// Whether backslash escapes are read in cells, as the reader read them (TSV).
  let decodesEscapes: Bool
  let nulls: NullTexts?
  /// For CSV input with dotted names (`camera.megapixels`): how the cells nest as JSON, so JSON
  /// output writes `"camera":{"megapixels":12}` as the reader read it. Nil when nothing nests.
  let nesting: [CellNesting]?
  /// The name of the file the records came from (`<stdin>` for standard input), for `-H`;
  /// nil for records not read from a file.
  let source: String?

  init(
    header: [String]?, separator: UInt8 = 0x2C, skipsInitialSpace: Bool = false,
    decodesEscapes: Bool = false, nulls: NullTexts? = nil, literalColumns: [Bool],
    textColumns: [Bool] = [], nesting: [CellNesting]? = nil, source: String? = nil
  ) {
    self.header = header
    self.nesting = nesting
    self.source = source
    self.separator = separator
    self.skipsInitialSpace = skipsInitialSpace
    self.decodesEscapes = decodesEscapes
    self.nulls = nulls
    self.literalColumns = literalColumns
    self.textColumns = textColumns
  }

  /// JSON records.
  static let json = RecordFields(header: nil, literalColumns: [])

  /// JSON records made from values, from the file called `source` (for `-H`).
  static func made(from source: String?) -> RecordFields {
    RecordFields(header: nil, literalColumns: [], source: source)
  }

  /// The record's fields as (name, cell) pairs. A JSON object's keys come in their order;
  /// a CSV row's cells under the header's names.
  func fields(_ record: DataRecord) -> [(name: String, cell: OutputCell)] {
    record.text.withUnsafeBufferPointer { bytes in
      if let header {
        var scanner = CSVScanner(
          bytes, from: 0, to: bytes.count, atEnd: true, separator: separator,
          skipsInitialSpace: skipsInitialSpace, decodesEscapes: decodesEscapes)
        var cells: [CSVCell] = []
        guard (try? scanner.record(into: &cells)) != nil else { return [] }
        return zip(header, cells).enumerated().map { column, pair in
          let (name, cell) = pair
          let literalColumn = column < self.literalColumns.count && self.literalColumns[column]
          let textColumn = column < self.textColumns.count && self.textColumns[column]
          // Null as the reader read it: empty (but `""` in a text column), a text named null,
          // or `NA` in a number column.
          if (cell.start == cell.end && !(cell.quoted && textColumn))
            || nulls?.isNamed(bytes, cell.start, cell.end) == true
            || (literalColumn && nulls?.isUsual(bytes, cell.start, cell.end) == true)
          {
            return (name, .null)
          }
          // (True/false as `True` or `TRUE` is written as JSON spells it.)
          if literalColumn, let truth = CSVColumns.boolean(bytes, cell) {
            return (name, .text(truth ? "true" : "false", literal: true))
          }
          let literal = literalColumn && RecordFields.isLiteral(bytes, cell)
          return (name, .text(scanner.text(cell), literal: literal))
        }
      }
      var scanner = JSONScanner(bytes, from: 0, to: bytes.count)
      var fields: [(name: String, cell: OutputCell)] = []
      try? scanner.container(depth: 0, close: 0x7D) {
        (scanner: inout JSONScanner) throws(DataProblem) in
        scanner.skipSpace()
        let name = try scanner.string()
        try scanner.expect(0x3A, "':'")
        scanner.skipSpace()
        let start = scanner.index
        try scanner.skipValue(depth: 1)
        fields.append(
          (
            name,
            .json(
              record.text[
                (record.text.startIndex + start)..<(record.text.startIndex + scanner.index)])
          ))
      }
      return fields
    }
  }

  /// Appends a CSV row's `fields` (in header order) as one JSON object nested by `nesting`.
  static func appendJSON(
    _ fields: [(name: String, cell: OutputCell)], nesting: [CellNesting], to out: inout [UInt8]
  ) {
    out.append(0x7B)
    for (i, part) in nesting.enumerated() {
      if i > 0 { out.append(0x2C) }
      switch part {
      case .cell(let name, let column):
        JSONText.appendQuoted(name.utf8, to: &out)
        out.append(0x3A)
        (column < fields.count ? fields[column].cell : .null).appendJSON(to: &out)
      case .record(let name, let inner):
        JSONText.appendQuoted(name.utf8, to: &out)
        out.append(0x3A)
        appendJSON(fields, nesting: inner, to: &out)
      }
    }
    out.append(0x7D)
  }

  /// Whether a cell's text is a JSON number or boolean.
  private static func isLiteral(_ bytes: UnsafeBufferPointer<UInt8>, _ cell: CSVCell) -> Bool {
    let slice = bytes[cell.start..<cell.end]
    return NumberText.integer(bytes, cell.start, cell.end) != nil
      || NumberText.decimal(bytes, cell.start, cell.end) != nil
      || slice.elementsEqual("true".utf8) || slice.elementsEqual("false".utf8)
  }
}

/// One key of a JSON object written from a CSV row: a cell, or a record of the cells whose
/// dotted names share a prefix.
indirect enum CellNesting: Sendable, Equatable {
  /// The cell of header column `column`, under `name`.
  case cell(name: String, column: Int)
  /// A nested record.
  case record(name: String, [CellNesting])

  /// The nesting of a CSV header's names, or nil when no name nests.
  static func of(_ csv: CSVColumns) -> [CellNesting]? {
    guard csv.tree.children.contains(where: { $0 != nil }) else { return nil }
    return of(csv.tree)
  }

  private static func of(_ tree: CSVColumns.NameTree) -> [CellNesting] {
    tree.names.indices.compactMap { slot in
      if let child = tree.children[slot] { return .record(name: tree.names[slot], of(child)) }
      return tree.columns[slot].map { .cell(name: tree.names[slot], column: $0) }
    }
  }
}
