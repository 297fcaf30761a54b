import FilterDSL

/// The formats `flt` writes.
public enum OutputFormat: String, CaseIterable, Sendable {
  /// Aligned columns for people, with a row count.
  case table
  /// One field a line (`name  value`), each record under a rule: for records too wide for a
  /// table (psql's `\x`, sqlite3's `.mode line`).
  case records
  /// A JSON array of objects.
  case json
  /// One JSON object per line.
  case jsonl
  /// Comma-separated values with a header row.
  case csv
  /// Tab-separated values with a header row.
  case tsv
  /// The values alone, as jq's `-r` writes them: a record a line, its fields separated by
  /// tabs, no header, text without quotes (null an empty field); tabs, line ends and other
  /// control characters in a value written as `\t`, `\n`, `\u{1B}`, so a line stays a record.
  case values

  /// The byte between cells, for CSV and TSV.
  var separator: UInt8? {
    switch self {
    case .csv: 0x2C
    case .tsv: 0x09
    case .table, .json, .jsonl, .records, .values: nil
    }
  }

  /// Whether the format is for people (a table, or records a field a line): nulls shown as
  /// ``RecordWriter/nullText``, a screenful on a terminal, a count at the end.
  public var isForPeople: Bool { self == .table || self == .records }
}

/// Where a scan hands the records it matched (see ``Scan``): ``RecordWriter`` for the data
/// formats, ``CountSink`` for a count, ``RecordCollector`` to keep them, a SQL script for
/// databases, or a sink of your own.
public protocol RecordSink: AnyObject {
  /// How many records were written.
  var count: Int { get }
  /// Writes one record.
  func write(_ record: DataRecord)
  /// Writes the rows `rows` of `batch`, in that order: matches of a query that does not
  /// sort, read by column. (By default, each made a record and written: a sink that reads the
  /// columns itself makes no record.)
  func write(_ batch: RecordBatch, rows: [Int])
  /// Takes what the sink writes from `source` itself, when the source computes it without
  /// handing its records over (a count from a footer or a database's `count(*)`, stats and
  /// facets from a database's `GROUP BY`: ``AggregatingSource``), for the records matching
  /// `query`: how many records match; nil, the default, when the records must be handed over.
  func summary(
    from source: any RecordSource, _ query: BoundQuery, parameters: [String: Value], now: Instant
  )
    throws -> Int?
  /// The records of a block are written: a format read as it streams hands them on now.
  func endOfBlock()
  /// The records of the source called `name` are written, when each source is queried on its
  /// own (``Scan/Options/perFile``).
  func endOfSource(_ name: String)
  /// Ends the output (a table is printed here, a JSON array closed).
  func finish()
  /// Why records can no longer be written (a closed pipe, a full disk), or nil: a scan stops
  /// reading then.
  var failure: String? { get }
  /// Faults the sink met making what it writes (a computed column's division by zero): a
  /// scan counts them with the query's (``ScanSummary/faults``).
  var faults: FaultCounts { get }
  /// What the sink says once it is finished (values it could not write as they were), as
  /// complete lines.
  var warnings: [String] { get }
  /// Whether the sink reads the records' fields (false: it only counts them, and a scan
  /// decodes only what the query reads).
  var writesRecords: Bool { get }
  /// Whether the sink writes the records' text (false: only their values, as a Parquet file
  /// or a SQL script does; a record made from values then gets no text).
  var readsRecordText: Bool { get }
}

extension RecordSink {
  /// Each row made a record (with its text when the sink reads it) and written.
  public func write(_ batch: RecordBatch, rows: [Int]) {
    for record in batch.records(rows, makingText: readsRecordText) { write(record) }
  }
  /// Reads the records.
  public func summary(
    from source: any RecordSource, _ query: BoundQuery, parameters: [String: Value],
    now: Instant
  ) throws -> Int? { nil }
  /// Nothing to hand on.
  public func endOfBlock() {}
  /// Nothing to say per source.
  public func endOfSource(_ name: String) {}
  /// Never fails.
  public var failure: String? { nil }
  /// None.
  public var faults: FaultCounts { FaultCounts() }
  /// None.
  public var warnings: [String] { [] }
  /// Reads the records.
  public var writesRecords: Bool { true }
  /// Reads the text.
  public var readsRecordText: Bool { true }
}

/// Writes records in an output format. Records keep their fields' order and exact values:
/// JSON input is copied byte for byte (without whitespace), CSV cells keep their text.
public final class RecordWriter: RecordSink {
  /// How many records were written.
  public private(set) var count = 0
  private let format: OutputFormat
  private let out: OutputSink
  /// The fields to write (`--select`), or nil for all.
  private let selection: [String]?
  /// The columns of CSV and table output (`file` first when ``showsFiles``).
  private let columns: [String]
  /// Whether each record is written with the file it came from (`-H`): `FILE:` before each
  /// JSON line (as grep writes it), a first column `file` in CSV, TSV and tables, a first
  /// line `file` in records a field a line. JSON arrays do not show it.
  private let showsFiles: Bool
  /// Table rows, laid out at the end: each cell's text fitted to ``maxCellWidth`` (not the
  /// cell itself, which would keep the whole block it was read in alive), and whether it
  /// is a number.
  private var rows: [[TableLayout.Cell]] = []
  /// The widest a table cell is shown, in terminal columns; longer cells end in `…`.
  public var maxCellWidth = 40
  /// Whether a table's header is bold (for a terminal).
  public var styled = false
  /// How a table shows null (`set null "∅"`); empty text is shown empty.
  public var nullText = "null"
  /// The number of rows there were, when fewer are written: the table says `20 of 79 rows`.
  public var totalRows: Int?
  /// The most lines a table or records a field a line may take (a screenful on a terminal):
  /// the rows or records past it are counted (`35 of 1000 rows`), not kept, so memory stays
  /// flat.
  public var maxRows: Int?

  /// How many records are shown, at most: as many rows as ``maxRows``, or as many records a
  /// field a line (a line per field and one for the rule) as fit in it, at least one.
  private var recordsShown: Int? {
    guard let maxRows else { return nil }
    return format == .records ? Swift.max(1, maxRows / (columns.count + 1)) : maxRows
  }

  /// How many records were shown: all of them, or as many as fit in ``maxRows``.
  public var shown: Int { recordsShown.map { Swift.min($0, count) } ?? count }
  /// The widest a table may be, in columns (a terminal's width): its widest columns are
  /// narrowed, their cells cut with `…`, until it fits. Nil: no limit.
  public var maxTableWidth: Int?
  /// What a table narrowed to ``maxTableWidth`` says after its row count: how to see the rest
  /// (`-s f1,f2 or -f records`). Nil: nothing.
  public var cutHint: String?

  /// A writer of the records of `source` (a file's reader, say), showing `select` (every
  /// field when nil).
  public convenience init(
    _ format: OutputFormat, for source: any RecordSource, select: [String]?, to out: OutputSink,
    showingFiles: Bool = false
  ) {
    self.init(
      format, columns: source.header ?? RecordWriter.columns(of: source.schema, for: format),
      select: select, to: out, showingFiles: showingFiles)
  }

  /// The columns `format` writes for records of `schema`: its fields; for CSV and TSV, nested
  /// records flattened to a column per field inside (`camera.megapixels`), as the CSV reader
  /// reads such headers back into nested records. Lists stay one column (JSON text).
  public static func columns(of schema: Schema, for format: OutputFormat) -> [String] {
    guard format.separator != nil else { return schema.names }
    var columns: [String] = []
    // The schema's nesting is bounded (a schema inferred from data is no deeper than the
    // reader allows), so the recursion is too.
    func add(_ schema: Schema, prefix: String) {
      for field in schema.fields {
        if case .record(let inner) = field.type, !inner.fields.isEmpty {
          add(inner, prefix: prefix + field.name + ".")
        } else {
          columns.append(prefix + field.name)
        }
      }
    }
    add(schema, prefix: "")
    return columns
  }

  /// A writer of records whose fields are `columns` (the header of CSV and table output),
  /// showing `select` (every column when nil). Records an embedder made itself come from
  /// ``DataRecord/init(_:schema:)``.
  public init(
    _ format: OutputFormat, columns: [String], select: [String]?, to out: OutputSink,
    showingFiles: Bool = false
  ) {
    self.format = format
    self.out = out
    selection = select
    showsFiles = showingFiles && format != .json
    self.columns = (showsFiles ? ["file"] : []) + (select ?? columns)
    if let separator = format.separator {
      out.write(RecordWriter.csvRow(self.columns, separator: separator))
    } else if format == .json {
      out.write("[")
    }
  }

  /// Writes one record.
  public func write(_ record: DataRecord) {
    count += 1
    switch format {
    case .jsonl, .json:
      var bytes = jsonStart(source: record.source)
      if selection == nil && record.format.header == nil {
        if record.text.count >= 1 << 20 {
          // A long record (a value of hundreds of megabytes) is written as it is compacted,
          // not copied whole first.
          out.write(bytes)
          bytes.removeAll()
          JSONText.forEachCompactRun(record.text) { out.write($0) }
        } else {
          JSONText.appendCompact(record.text, to: &bytes)
        }
      } else if selection == nil, let nesting = record.format.nesting {
        RecordFields.appendJSON(record.format.fields(record), nesting: nesting, to: &bytes)
      } else {
        // A CSV header's dotted names of plain names are nested fields (the reader nests
        // them), its other names whole (`Term (yyyy.mm.dd)`); a JSON key's dots are its own.
        let literal =
          record.format.nesting.map { nesting in
            nesting.compactMap { member -> String? in
              if case .cell(let name, _) = member { name } else { nil }
            }
          } ?? record.format.fields(record).map(\.name)
        SelectedJSON(selected(record), fields: literal).append(to: &bytes)
      }
      jsonEnd(bytes)
    case .csv, .tsv, .values, .records, .table:
      write(cells: cells(record))
    }
  }

  /// Writes the rows `rows` of `batch`: records read as text as ``write(_:)`` writes them;
  /// records made from values (a Parquet file's, a table's) from the batch's columns, each
  /// cell from its value, as their JSON text would have given it.
  public func write(_ batch: RecordBatch, rows: [Int]) {
    guard batch.isMadeFromValues else {
      for record in batch.records(rows) { write(record) }
      return
    }
    let table = batch.table
    if valueCells?.schema != table.schema {
      valueCells = ValueCells(
        schema: table.schema, columns: Array(columns.dropFirst(showsFiles ? 1 : 0)))
    }
    guard let reader = valueCells?.cells(of: batch.table, rows: rows.count) else { return }
    let file: OutputCell? = showsFiles ? .text(batch.source ?? "", literal: false) : nil
    for row in rows where row >= 0 && row < table.count {
      count += 1
      switch format {
      case .jsonl, .json:
        var bytes = jsonStart(source: batch.source)
        if let selection {
          // (The columns are the selection's.)
          let selected = Array(zip(selection, reader.cells(row: row)))
          SelectedJSON(selected, fields: table.schema.names).append(to: &bytes)
        } else {
          DataRecord.appendObject(table.columns.map { $0.value(at: row) }, table.schema, to: &bytes)
        }
        jsonEnd(bytes)
      case .csv, .tsv, .values, .records, .table:
        let cells = reader.cells(row: row)
        write(cells: file.map { [$0] + cells } ?? cells)
      }
    }
  }

  /// The cells of the batch's columns, for the schema it last had.
  private var valueCells: ValueCells?
  /// A CSV or TSV line being made (kept, so that its room is).
  private var line: [UInt8] = []

  /// What a JSON record begins with: the comma between the records of an array, and the file
  /// it came from (`-H`).
  private func jsonStart(source: String?) -> [UInt8] {
    var bytes: [UInt8] = []
    if format == .json { bytes.append(contentsOf: (count == 1 ? "\n" : ",\n").utf8) }
    if showsFiles { appendFileName(source, to: &bytes) }
    return bytes
  }

  /// Writes a JSON record's `bytes`, with its line break in JSON Lines.
  private func jsonEnd(_ bytes: [UInt8]) {
    var bytes = bytes
    if format == .jsonl { bytes.append(0x0A) }
    out.write(bytes)
  }

  /// Writes one record's `cells` (under ``columns``) in CSV, TSV, values, records or a table.
  private func write(cells: [OutputCell]) {
    switch format {
    case .csv, .tsv:
      // Null is an empty cell, and empty text a quoted one (`""`), as DuckDB and Python's
      // csv module write them: the two stay apart.
      line.removeAll(keepingCapacity: true)
      RecordWriter.appendRow(
        cells.lazy.map { $0.isNull ? nil : $0.text }, separator: format.separator ?? 0x2C,
        to: &line)
      out.write(line)
    case .values:
      let texts = cells.map { RecordWriter.plainValue($0.text) }
      out.write(texts.joined(separator: "\t") + "\n")
    case .records:
      if let recordsShown, count > recordsShown { return }
      writeVertically(cells)
    case .table:
      if let recordsShown, rows.count >= recordsShown { return }
      rows.append(
        cells.map { cell in
          cell.isNull
            ? TableLayout.Cell(nullText, isNumber: false, maxWidth: maxCellWidth, isNull: true)
            : TableLayout.Cell(cell.text, isNumber: cell.isNumber, maxWidth: maxCellWidth)
        })
    case .json, .jsonl:
      break
    }
  }

  /// Hands the block's records on, in a format read as it streams (not a table, which is laid
  /// out at the end).
  public func endOfBlock() {
    if !format.isForPeople { out.flush() }
  }

  /// Why the output can no longer be written, or nil.
  public var failure: String? { out.failure }

  /// Ends the output: closes the JSON array, or lays out the table.
  public func finish() {
    switch format {
    case .json: out.write(count == 0 ? "]\n" : "\n]\n")
    case .table: writeTable()
    case .records:
      let all = Swift.max(totalRows ?? count, count)
      out.write(
        (all > shown ? "\(shown) of \(all)" : "\(all)") + (all == 1 ? " record\n" : " records\n"))
    case .jsonl, .csv, .tsv, .values: break
    }
    out.flush()
  }

  /// `text` as ``OutputFormat/values`` writes it: as it is, but for control characters,
  /// escaped so that they can neither split a record nor reach a terminal.
  public static func plainValue(_ text: String) -> String {
    TableText.escapingControls(text, keepingLineBreaks: false)
  }

  /// The record's fields in output order: the selection's, or the record's own.
  private func selected(_ record: DataRecord) -> [(name: String, cell: OutputCell)] {
    let all = record.format.fields(record)
    guard let selection else { return all }
    return selection.map { name in (name, RecordWriter.cell(name, in: all)) }
  }

  /// The record's cells under ``columns``.
  private func cells(_ record: DataRecord) -> [OutputCell] {
    let all = record.format.fields(record)
    let own = columns.dropFirst(showsFiles ? 1 : 0).map { RecordWriter.cell($0, in: all) }
    return showsFiles ? [.text(record.source ?? "", literal: false)] + own : own
  }

  /// `FILE:` before a JSON line, as grep writes it (the name magenta, `:` cyan, when styled).
  private func appendFileName(_ source: String?, to bytes: inout [UInt8]) {
    let name = TableText.printable(source ?? "")
    bytes.append(
      contentsOf: (styled ? "\u{1B}[35m\(name)\u{1B}[36m:\u{1B}[0m" : name + ":").utf8)
  }

  /// The cell of the field `name` (the last one, if the record repeats it); a dotted name
  /// such as `camera.zoom` reaches into nested JSON objects.
  static func cell(_ name: String, in fields: [(name: String, cell: OutputCell)]) -> OutputCell {
    if let field = fields.last(where: { $0.name == name }) { return field.cell }
    var parts = name.split(separator: ".", omittingEmptySubsequences: false)[...]
    var current = fields
    while let part = parts.popFirst() {
      guard let field = current.last(where: { $0.name == part }) else { return .null }
      if parts.isEmpty { return field.cell }
      guard case .json(let raw) = field.cell, raw.first == 0x7B else { return .null }
      current = RecordFields.json.fields(DataRecord(values: [], text: raw))
    }
    return .null
  }

  /// One CSV line (RFC 4180): cells holding the separator (a comma, or a tab for TSV), a
  /// quote or a line break are quoted, with quotes doubled.
  public static func csvRow(_ cells: [String], separator: UInt8 = 0x2C) -> [UInt8] {
    csvRow(cells.map(Optional.some), separator: separator)
  }

  /// One CSV line whose nil cells are null: empty, where empty text is quoted (`""`). With a
  /// tab between cells, a TSV line instead (see ``appendTSVCell(_:to:)``).
  static func csvRow(_ cells: [String?], separator: UInt8 = 0x2C) -> [UInt8] {
    var bytes: [UInt8] = []
    appendRow(cells, separator: separator, to: &bytes)
    return bytes
  }

  /// Appends one CSV line (or, with a tab between cells, TSV) of `cells` to `bytes`, nil cells
  /// null.
  static func appendRow(
    _ cells: some Sequence<String?>, separator: UInt8, to bytes: inout [UInt8]
  ) {
    for (i, cell) in cells.enumerated() {
      if i > 0 { bytes.append(separator) }
      guard let text = cell else { continue }
      if separator == 0x09 {
        appendTSVCell(text, to: &bytes)
      } else if text.isEmpty {
        bytes += [0x22, 0x22]
      } else if text.utf8.contains(where: {
        $0 == separator || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D
      }) {
        bytes.append(0x22)
        for byte in text.utf8 {
          if byte == 0x22 { bytes.append(0x22) }
          bytes.append(byte)
        }
        bytes.append(0x22)
      } else {
        bytes.append(contentsOf: text.utf8)
      }
    }
    bytes.append(0x0A)
  }

  /// One TSV cell, as TSV readers expect it (Miller, PostgreSQL's `COPY`, ClickHouse, `cut`
  /// and `awk`: a record a line, no quotes): a tab, a line break, a carriage return and a
  /// backslash in a value written `\t`, `\n`, `\r`, `\\` (flt's TSV reader reads them back);
  /// null and empty text both empty. Only a value that begins with a quote is quoted, as CSV
  /// quotes (`"""x"`), so that a reader that takes a leading quote as quoting (Excel's, flt's)
  /// reads it whole.
  static func appendTSVCell(_ text: String, to bytes: inout [UInt8]) {
    let quoted = text.utf8.first == 0x22
    if quoted { bytes.append(0x22) }
    for byte in text.utf8 {
      switch byte {
      case 0x09: bytes += [0x5C, UInt8(ascii: "t")]
      case 0x0A: bytes += [0x5C, UInt8(ascii: "n")]
      case 0x0D: bytes += [0x5C, UInt8(ascii: "r")]
      case 0x5C: bytes += [0x5C, 0x5C]
      case 0x22 where quoted: bytes += [0x22, 0x22]
      default: bytes.append(byte)
      }
    }
    if quoted { bytes.append(0x22) }
  }

  // MARK: Table

  /// One record a field a line, under a rule with its number: names padded to the widest,
  /// values as a table shows them (null as ``nullText``, control characters visible).
  private func writeVertically(_ cells: [OutputCell]) {
    let width = columns.map { DisplayWidth.of($0) }.max() ?? 0
    let rule = "── \(count) " + String(repeating: "─", count: Swift.max(3, width + 8))
    var text = (styled ? "\u{1B}[1m" + rule + "\u{1B}[0m" : rule) + "\n"
    for (name, cell) in zip(columns, cells) {
      let pad = String(repeating: " ", count: width - DisplayWidth.of(name) + 2)
      let value = cell.isNull ? nullText : TableText.printable(cell.text)
      let shown = cell.isNull && styled ? "\u{1B}[2m" + value + "\u{1B}[0m" : value
      text += TableText.printable(name) + pad + shown + "\n"
    }
    out.write(text)
  }

  private func writeTable() {
    var table = TableLayout(headers: columns, maxCellWidth: maxCellWidth)
    table.styled = styled
    table.maxTotalWidth = maxTableWidth
    table.cutHint = cutHint
    table.rows = rows
    let shown = "\(rows.count)"
    let all = Swift.max(totalRows ?? count, count)
    let total = all > rows.count ? "\(rows.count) of \(all)" : shown
    let noun = all == 1 ? "row" : "rows"
    table.write(footer: "\(total) \(noun)", to: out)
  }
}
