import FilterDSL

/// The syntax of CSV and TSV rows: the byte between cells, whether spaces right after it are
/// skipped, whether backslash escapes are read in cells (TSV: `\t`, `\n`, `\r`, `\\`), and
/// the header's columns (nested for dotted names).
struct DelimitedSyntax {
  /// The byte between cells (see ``ReadOptions/delimiter``).
  var separator: UInt8
  /// Whether spaces right after a delimiter are skipped (see
  /// ``ReadOptions/skipsInitialSpace``).
  var skipsInitialSpace: Bool
  /// Whether backslash escapes are read in cells.
  let decodesEscapes: Bool
  /// The header's columns, and the null texts cells are read with.
  var columns: CSVColumns

  /// The syntax of `format` (CSV or TSV) as `options` name it, and as the input's first line
  /// (`firstLine`, its bytes outside quotes, each with the byte after it) shows it where they
  /// do not: a CSV file's delimiter (`,`, else the most frequent of `;`, a tab and `|`), and
  /// whether its header has a space after every delimiter. The columns are read after.
  init(
    _ format: DataFormat, options: ReadOptions, nulls: NullTexts,
    firstLine: () throws(DataError) -> [(UInt8, UInt8)]
  ) throws(DataError) {
    let sniffs = format == .csv
    if let delimiter = options.delimiter {
      separator = delimiter
    } else {
      separator = sniffs ? DelimitedSyntax.separator(in: try firstLine()) : format.separator ?? 0x2C
    }
    if let skips = options.skipsInitialSpace {
      skipsInitialSpace = skips
    } else {
      skipsInitialSpace =
        sniffs ? DelimitedSyntax.spaceAfterEvery(separator, in: try firstLine()) : false
    }
    decodesEscapes = format == .tsv
    columns = CSVColumns(header: [], nulls: nulls)
  }

  /// `,` when `line` has one, else the most frequent of `;`, a tab and `|` there (European
  /// spreadsheets write `;`), else `,`.
  static func separator(in line: [(UInt8, UInt8)]) -> UInt8 {
    var counts: [UInt8: Int] = [:]
    for (byte, _) in line where byte == 0x2C || ReadOptions.sniffedDelimiters.contains(byte) {
      counts[byte, default: 0] += 1
    }
    if counts[0x2C] != nil { return 0x2C }
    return ReadOptions.sniffedDelimiters.max { counts[$0, default: 0] < counts[$1, default: 0] }
      .flatMap { counts[$0] != nil ? $0 : nil } ?? 0x2C
  }

  /// Whether `line` has a `separator`, each with a space right after it: `name, price,
  /// color`. Then spaces after delimiters are skipped in every row.
  static func spaceAfterEvery(_ separator: UInt8, in line: [(UInt8, UInt8)]) -> Bool {
    var delimiters = 0
    for (byte, next) in line where byte == separator {
      guard next == 0x20 else { return false }
      delimiters += 1
    }
    return delimiters > 0
  }

  /// A scanner of the rows of `bytes[from..<to]` (`atEnd`: the input ends at `to`).
  func scanner(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int, atEnd: Bool)
    -> CSVScanner
  {
    CSVScanner(
      bytes, from: from, to: to, atEnd: atEnd, separator: separator,
      skipsInitialSpace: skipsInitialSpace, decodesEscapes: decodesEscapes)
  }

  /// How output reads the rows back (written as JSON: the columns of `literal` types, numbers
  /// and booleans, unquoted), `type` giving each column's field type.
  func recordFields(_ type: (Int) -> ValueType?, source: String) -> RecordFields {
    let header = columns.header
    return RecordFields(
      header: header, separator: separator, skipsInitialSpace: skipsInitialSpace,
      decodesEscapes: decodesEscapes, nulls: columns.nulls,
      literalColumns: header.indices.map { column in
        let type = type(column)
        return type == .int || type == .double || type == .decimal || type == .bool
      },
      textColumns: header.indices.map { type($0) == .string },
      nesting: CellNesting.of(columns), source: source)
  }
}
