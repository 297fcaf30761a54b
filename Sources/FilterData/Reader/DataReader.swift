import FilterDSL

/// Reads a JSON, JSON Lines or CSV file (or standard input) as blocks of records.
///
/// Opening the reader infers the schema from the first ``sampleRecords`` records (or as many
/// as the first 16 MiB hold). ``next()`` then returns the records block by block, so a
/// caller can filter and print as it goes and memory stays flat however large the input.
///
/// ```swift
/// let reader = try DataReader(path: "phones.jsonl")
/// let filter = try CompiledFilter("diskSpace >= 256", for: reader.recordType)
/// while let block = try reader.next() { for record in block where filter.matches(record) { … } }
/// ```
///
/// A value that does not fit the type inferred for its field (a decimal in a column of
/// integers, text in a column of numbers), or a key the sample did not show, grows the schema:
/// the field widens (int to double, any other mix to text) or is added, its record is read
/// again, and ``schemaVersion`` counts up. Nothing is read as null that was not null. Records
/// returned before a change keep the values they were read with; ``redecoded(_:)`` reads one
/// again under the current schema, and ``takeSchemaChanges()`` says what changed and where.
public final class DataReader {
  /// The format being read.
  public private(set) var format: DataFormat
  /// The file's name in messages: its path, or `<stdin>`.
  public var name: String { input.name }
  /// The fields inferred from the data.
  public private(set) var schema = Schema([])
  /// How filters read these records.
  public private(set) var recordType = DataRecord.recordType(Schema([]))
  /// Whether the schema was inferred from the whole input (it was small enough), or has
  /// grown with every record to the end of it.
  public internal(set) var sawEverything = false
  /// Whether the input has no fields at all: no records (an empty file, `[]`), or only empty
  /// objects.
  public private(set) var isEmpty = false
  /// Counts the changes to ``schema`` since the reader was opened. The records of a block
  /// returned by ``next()`` are read under the schema of the version current when it returns.
  public internal(set) var schemaVersion = 0
  /// For CSV, the header's column names; for JSON, nil.
  public var header: [String]? { delimited?.columns.header }
  /// The size of the file when known, and how much has been read, for progress reports.
  public var size: Int? { input.size }
  /// How many bytes were read from the input so far (for gzip data, compressed bytes), of
  /// the blocks handed to the parser.
  public internal(set) var bytesRead = 0

  /// The most records the schema is inferred from.
  public static let sampleRecords = 10_000
  /// The most bytes read ahead to find them.
  static let sampleBytes = 16 << 20
  /// How many bytes are read at a time.
  static let defaultBlockSize = 4 << 20
  /// The most values (records times their width) a block of records holds.
  static let blockValues = 1 << 19
  /// How long a stream may pause, after some records, before the schema is inferred from
  /// them.
  static let pauseMilliseconds: Int32 = 200
  let blockSize: Int
  /// The longest a single record may be. Input with no record end in sight (`/dev/zero` read
  /// as CSV, a binary file) stops with an error here instead of growing memory without bound.
  let maxRecordBytes: Int

  let input: ByteInput
  /// The file's path (nil for standard input).
  let path: String?
  /// Null texts and fixed types.
  public let options: ReadOptions
  /// The null texts: those the options name, and the file's null markers once inferred.
  var nulls: NullTexts
  /// The usual null texts taken as the file's null markers (`NA` where it stands for null in
  /// a field of numbers): read as null in its text fields too. `--schema` shows them.
  public internal(set) var nullMarkers: [String] = []
  /// For CSV and TSV, the byte between cells (see ``ReadOptions/delimiter``).
  public var separator: UInt8 { delimited?.separator ?? 0x2C }
  /// For CSV and TSV, whether spaces right after a delimiter are skipped (see
  /// ``ReadOptions/skipsInitialSpace``).
  public var skipsInitialSpace: Bool { delimited?.skipsInitialSpace ?? false }
  var buffer: [UInt8] = []
  /// The next block of gzip data, decoded while this one is parsed (see ``ReadAhead``);
  /// whether blocks are read ahead at all (tests compare with reading in turn), and how many
  /// were taken as they were read (the reader kept the bytes guessed) or joined to the bytes
  /// kept.
  var ahead: ReadAhead? = nil
  let readsAhead: Bool
  var aheadCounts = (taken: 0, joined: 0)
  /// Where `buffer` starts in the input (the bytes before it were dropped).
  var bufferOffset = 0
  var position = 0
  var atEnd = false
  var finished = false
  /// The line number at `position`, and the offset in `buffer` where that line starts.
  var line = 1
  var lineStart = 0
  /// When the current line began before the buffer (``lineStart`` negative): how many
  /// characters of it were dropped, so that errors still give its true column.
  var droppedColumns = 0
  /// How records follow one another, and where the reader stands among them.
  var framing = RecordFraming(document: false, root: [])
  let growth = GrowthLog()
  var layout: RecordLayout
  /// The top-level fields decoded (nil: all of them).
  var decodedFields: Set<String>? = nil
  /// Whether ``read(_:)`` hands over blocks read by column (see ``prepare(decoding:)``).
  var readsByColumn = true
  /// A schema grown by a record that did not fit, to adopt before the next record is read,
  /// and the changes made.
  var grownSchema: Schema? = nil
  var changes: [SchemaChange] = []
  /// For CSV and TSV, the syntax of a row and the header's columns; nil for JSON.
  var delimited: DelimitedSyntax? = nil
  /// How output reads this file's records back: JSON, or CSV under its header with the
  /// columns of numbers and booleans marked (they are written unquoted in JSON).
  var recordFields: RecordFields
  var cells: [CSVCell] = []
  var warnings: [DataError] = []
  /// An error met after records of the block being read: the block is handed over with the
  /// records before it, and the next read throws it (see ``parse(_:decode:tally:limit:)``).
  var pendingFailure: (problem: DataProblem, newlines: Int, lineStart: Int)? = nil
  /// Set while the sample the schema is inferred from is tallied: an error after some records
  /// ends the sample there (the records before it are read, and handed over, before it is
  /// said), and ``sampleEndedAtError`` says so.
  var stopsSampleAtError = false
  var sampleEndedAtError = false
  /// For a part of a buffer (see ``init(part:from:to:atEnd:)``), where the part ends; nil
  /// for a reader, which reads to the end of its buffer.
  var end: Int? = nil
  /// Where records are read into columns (see ``nextRows(_:)``), nil when they are read as
  /// records; and the rows of a buffer's second part (see ``readInParts(_:limit:)``).
  var rows: ColumnRows? = nil
  var secondRows: ColumnRows? = nil
  /// The most distinct values the rows' builder keeps from block to block for
  /// ``nextBatches()`` (tests make it small).
  var batchCodedValues = 1 << 16
  /// For a part: the records it read, and whether it read them cleanly.
  var partRecords: [DataRecord] = []
  var readCleanly = false
  /// How many more blocks are read in turn before parts are tried again.
  var partsDeclined = 0
  /// Whether buffers may be read in two parts at once (tests compare with reading in turn),
  /// and how many second parts were kept.
  var readsInParts = true
  /// Whether the sample is tallied with shortcuts (see ``TypeTally/shortcuts``).
  let tallyShortcuts: Bool
  var partsKept = 0
  /// Where the first buffers were cut, as offsets into the input (tests place records there).
  var cuts: [Int] = []

  /// A reader of `reader`'s buffer from `start` to `end` only, under its schema, for
  /// ``readInParts(_:limit:)``: it shares the buffer but nothing that changes (its own
  /// growth log and record layout), and reads nothing from the input. `atEnd` says whether
  /// the part ends where the input does.
  init(part reader: DataReader, from start: Int, to end: Int, atEnd: Bool) {
    (blockSize, maxRecordBytes, options, nulls, nullMarkers) =
      (reader.blockSize, reader.maxRecordBytes, reader.options, reader.nulls, reader.nullMarkers)
    tallyShortcuts = reader.tallyShortcuts
    readsAhead = false
    (input, path, format, recordFields) =
      (reader.input, reader.path, reader.format, reader.recordFields)
    (growth.fixed, growth.acceptsNewFields) = (reader.growth.fixed, reader.growth.acceptsNewFields)
    (schema, decodedFields, delimited) = (reader.schema, reader.decodedFields, reader.delimited)
    layout = RecordLayout(reader.schema, growth: growth)
    layout.decodeOnly(decodedFields)
    (buffer, bufferOffset, framing, line) =
      (reader.buffer, reader.bufferOffset, reader.framing, reader.line)
    (position, self.end, self.atEnd) = (start, end, atEnd)
    lineStart = start == reader.position ? reader.lineStart : start
  }

  /// Opens `path` (standard input for nil or `-`) and infers its schema. The format comes
  /// from `format`, else from the file's extension; standard input without a format is JSON
  /// if it starts with `[`, JSON Lines if it starts with `{`, and CSV otherwise.
  public convenience init(
    path: String?, format: DataFormat? = nil, options: ReadOptions = ReadOptions()
  ) throws(DataError) {
    try self.init(
      path: path, format: format, options: options, blockSize: DataReader.defaultBlockSize)
  }

  /// A reader that reads `blockSize` bytes at a time and infers the schema from the first
  /// `sample` records (tests use tiny blocks so that records straddle them, and small samples
  /// so that the schema grows; and compare with reading no block ahead).
  init(
    path: String?, format: DataFormat?, options: ReadOptions = ReadOptions(), blockSize: Int,
    maxRecordBytes: Int = 256 << 20, sample: Int = DataReader.sampleRecords,
    tallyShortcuts: Bool = true, readsAhead: Bool = true, input given: ByteInput? = nil
  ) throws(DataError) {
    self.tallyShortcuts = tallyShortcuts
    self.readsAhead = readsAhead
    self.blockSize = Swift.max(1, blockSize)
    self.maxRecordBytes = maxRecordBytes
    self.options = options
    nulls = NullTexts(options)
    growth.fixed = Set(options.types.keys)
    self.path = path == "-" ? nil : path
    if let given { input = given } else { input = try ByteInput(path: path) }
    recordFields = RecordFields(header: nil, literalColumns: [], source: input.name)
    let sniff = format == nil && (path == nil || path == "-")
    guard let named = format ?? path.flatMap(DataFormat.init(path:)) ?? (sniff ? .jsonl : nil)
    else {
      throw DataError.file(
        input.name,
        "has no known extension (\(DataFormat.extensionList)); say which format it is with --input-format"
      )
    }
    guard DataFormat.texts.contains(named) else {
      throw DataError.file(
        input.name, "is \(named.title), which its own source reads (see FileSource.open)")
    }
    self.format = named
    layout = RecordLayout(Schema([]), growth: growth)
    try fill()
    while buffer.count < 3 && !atEnd { try fill() }
    // A UTF-8 byte order mark says nothing for UTF-8; skip it.
    if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    if sniff || named.separator == nil {
      // Blank lines before the data (any number of them) are passed, not kept in memory.
      try skipSpace()
    }
    if sniff { self.format = try sniffFormat() }
    if self.format == .tsv { nulls = NullTexts(options, tsv: true) }
    if !options.root.isEmpty && self.format != .json {
      throw DataError.file(
        input.name,
        "is read as \(self.format.name), and --root only applies to a JSON document; say -i json if it is one"
      )
    }
    framing = RecordFraming(document: self.format == .json, root: options.root)
    if self.format.separator != nil {
      delimited = try DelimitedSyntax(
        self.format, options: options, nulls: nulls, firstLine: firstLineOutsideQuotes)
      // (Read before the assignment, which holds `delimited` while it runs.)
      let header = try DataReader.readHeader(self)
      delimited?.columns = CSVColumns(header: header, nulls: nulls, fixed: growth.fixed)
    }
    let (schema, complete) = try infer(records: Swift.max(1, sample))
    sawEverything = complete
    isEmpty = complete && schema.fields.isEmpty
    adopt(schema)
    schemaVersion = 0
  }

  /// The format of standard input read with no format named, from its first byte that is
  /// not a space: `[` begins a JSON array, `{` a JSON object (JSON Lines, one or more), and
  /// anything else is CSV with a header (TSV when the header's first block has tabs and no
  /// commas).
  private func sniffFormat() throws(DataError) -> DataFormat {
    let index = position
    guard index < buffer.count else { return .jsonl }
    // Another registered format's first bytes (Parquet's `PAR1`): say so, not read as CSV.
    if let other = DataFormat.sniffed(buffer[index...]), !DataFormat.texts.contains(other) {
      throw DataError.file(
        input.name,
        other.readsStreams
          ? "begins as \(other.title) does; say so with -i \(other.name)"
          : "begins as \(other.title) does, which is read from a file, not a stream; save it to a file first"
      )
    }
    switch buffer[index] {
    case UInt8(ascii: "["): return .json
    case UInt8(ascii: "{"): return options.root.isEmpty ? .jsonl : .json
    default:
      // A header with tabs and no commas is TSV.
      let header = buffer[index...].prefix { $0 != 0x0A }
      return header.contains(0x09) && !header.contains(0x2C) ? .tsv : .csv
    }
  }

  /// Moves past spaces, tabs and line ends (reading on as far as they go, and dropping them
  /// from the buffer), counting lines.
  func skipSpace() throws(DataError) {
    while true {
      while position < buffer.count, [0x20, 0x09, 0x0A, 0x0D].contains(buffer[position]) {
        if buffer[position] == 0x0A { (line, lineStart) = (line + 1, position + 1) }
        position += 1
      }
      if position < buffer.count || atEnd { return }
      try fill()
    }
  }

  /// Reads `schema` from now on.
  func adopt(_ schema: Schema) {
    // Fields whose type the user fixed keep it, whatever the data suggested; every field
    // knows the texts read as null in it.
    let named = nulls.namedTexts
    let schema = Schema(
      schema.fields.map { field in
        var field = field
        if let type = options.types[field.name], type != field.type {
          field = Schema.Field(field.name, type, optional: true)
        }
        if !named.isEmpty {
          field.nullTexts = Array(Set(named).union(field.nullTexts ?? [])).sorted()
        }
        return field
      })
    self.schema = schema
    schemaVersion += 1
    recordType = DataRecord.recordType(schema)
    layout = RecordLayout(schema, growth: growth)
    layout.decodeOnly(decodedFields)
    // Values read from now on may be read otherwise than their spellings were before.
    rows?.builder.forgetSpellings()
    secondRows?.builder.forgetSpellings()
    if let delimited {
      recordFields = delimited.recordFields(columnType, source: input.name)
    }
  }

  /// Decodes only the top-level fields called `fields` from now on (others stay null): the
  /// fields a query uses. Records are still checked whole, and their text is kept whole; keys
  /// the schema lacks are skipped rather than added (no query can name them).
  public func decodeOnly(_ fields: Set<String>) {
    decodedFields = fields
    growth.acceptsNewFields = false
    layout.decodeOnly(fields)
  }

  /// The next block of records, or nil at the end of the input. A block ends early where a
  /// record needs the schema to grow; the next block starts with that record.
  public func next() throws(DataError) -> [DataRecord]? {
    var records: [DataRecord] = []
    return try advance(&records) ? records : nil
  }

  /// Reads the next block of records into columns rather than as records: `take` is given
  /// the block's rows, in order (twice when the buffer was read in two parts at once), to
  /// join them to the caller's columns and take their texts. Returns false at the end of the
  /// input. A block ends early where a record needs the schema to grow, as with ``next()``.
  func nextRows(_ take: (inout ColumnRows) -> Void) throws(DataError) -> Bool {
    if rows == nil { rows = ColumnRows() }
    var none: [DataRecord] = []
    guard try advance(&none) else { return false }
    for second in [false, true] {
      guard var taken = second ? secondRows : rows, taken.count > 0 else { continue }
      // (Taken out of the reader while `take` empties them, so that they are not copied.)
      if second { secondRows = nil } else { rows = nil }
      take(&taken)
      taken.removeAll()
      if second { secondRows = taken } else { rows = taken }
    }
    return true
  }

  /// Parses on until the block holds records (in `records`, or in ``rows``): false at the end
  /// of the input.
  private func advance(_ records: inout [DataRecord]) throws(DataError) -> Bool {
    if let pending = pendingFailure {
      pendingFailure = nil
      throw try failure(pending.problem, newlines: pending.newlines, lineStart: pending.lineStart)
    }
    while !finished {
      try parse(&records, decode: true)
      if !records.isEmpty || (rows?.count ?? 0) > 0 || (secondRows?.count ?? 0) > 0 {
        return true
      }
      if grownSchema != nil { continue }
      if atEnd {
        finished = true
        if growth.acceptsNewFields { sawEverything = true }
        try checkEnd()
      } else {
        try checkRecordLength()
        try fill()
      }
    }
    return false
  }

  /// Where the text of `record`, of the block ``next()`` returned last, starts in the input.
  func offset(of record: DataRecord) -> Int { bufferOffset + record.text.startIndex }

  /// The file being read, kept open to read records' text back from it (see ``RecordFile``):
  /// nil for standard input, a pipe, or gzip data (whose text is not the file's bytes).
  func recordFile() -> RecordFile? {
    // (The input is the read ahead's while it runs.)
    ahead?.withInput { $0.recordFile() } ?? input.recordFile()
  }

  /// `record` (returned before the schema last grew) read again from its text under the
  /// current schema, so that it reads like the records returned since.
  public func redecoded(_ record: DataRecord) -> DataRecord {
    // Its values that do not convert to a fixed type were counted when it was first read.
    let (failures, unreported) = (growth.failures, growth.unreported)
    defer { (growth.failures, growth.unreported) = (failures, unreported) }
    var copy = record
    let values: [Value]? = record.text.withUnsafeBufferPointer { bytes in
      if let delimited {
        let csv = delimited.columns
        var scanner = delimited.scanner(bytes, from: 0, to: bytes.count, atEnd: true)
        var cells: [CSVCell] = []
        guard (try? scanner.record(into: &cells)) != nil else { return nil }
        return csvValues(
          csv, cells, scanner, csvTargets(csv), row: 0..<bytes.count, line: line)
      }
      var scanner = JSONScanner(bytes, from: 0, to: bytes.count)
      scanner.nulls = nulls
      return try? scanner.record(layout, depth: 0)
    }
    // The schema has grown by this record already; nothing it holds is new.
    growth.pending.removeAll()
    if let values { copy.values = values }
    return copy
  }

  /// The changes to the schema since the last call: fields widened or added, each with the
  /// first value that needed it.
  public func takeSchemaChanges() -> [SchemaChange] {
    defer { changes.removeAll() }
    return changes
  }

  /// For CSV, the type of the field that column `column` of the header fills.
  public func columnType(_ column: Int) -> ValueType? {
    guard let csv = delimited?.columns, column < csv.paths.count else { return nil }
    return fieldType(csv.paths[column])?.0
  }
}
