import FilterDSL

/// Writes records as a Parquet file (`flt -f parquet -o out.parquet`), so that what flt
/// filtered goes on to DuckDB, Polars, pandas or Spark: row groups of up to
/// ``rowGroupRows`` records (or about 64 MiB of values), each column chunk a data page (v1)
/// with its levels, text with few distinct values as a dictionary, every page compressed with
/// snappy (or not at all), and each chunk's statistics (least and greatest value, null
/// count) for readers that skip row groups; the footer at the end. The layout is
/// `ParquetLayout`'s: every field optional, records as groups, lists in three levels.
///
/// Values are written as their field's type says: a number of another kind where a number
/// goes is converted (an integer in a decimal field), anything in a text field as its text;
/// a value that does not fit (text in an integer field, a time outside what microseconds
/// since 1970 can hold) is written as null and counted (``warnings``), never dropped unsaid.
/// Times are written to the microsecond: finer fractions are cut, and counted.
public final class ParquetWriter: RecordSink {
  /// How pages are compressed.
  public enum Compression: Sendable {
    /// Pages as they are.
    case none
    /// Pages compressed with snappy (what readers expect by default).
    case snappy
  }

  /// How many records were written.
  public private(set) var count = 0
  private let layout: ParquetLayout
  private let out: OutputSink
  private let compression: Compression
  /// Bytes written so far (offsets in the file).
  private var written = 0
  /// The entries of the row group being gathered, a chunk per leaf.
  private var chunks: [LeafChunk]
  private var rows = 0
  private var bytes = 0
  private var rowGroups: [RowGroupMetadata] = []
  private var counted = WrittenValues()
  private var problem: String?

  /// The most records a row group holds (DuckDB's default is 122,880).
  public let rowGroupRows: Int
  /// About the most bytes of values a row group gathers before it is written.
  static let rowGroupBytes = 64 << 20

  /// A writer of records of `schema` to `out`, in row groups of at most `rowGroupRows`
  /// records; writes the file's first bytes. Throws for a schema nested deeper than Parquet
  /// readers (flt's among them) read.
  public init(
    schema: Schema, to out: OutputSink, compression: Compression = .snappy,
    rowGroupRows: Int = 122_880
  ) throws(ScanError) {
    self.rowGroupRows = Swift.max(1, rowGroupRows)
    layout = ParquetLayout(schema)
    guard layout.depth <= ParquetSchema.maxDepth else {
      throw ScanError(
        message:
          "the records are nested \(layout.depth) levels deep, deeper than the \(ParquetSchema.maxDepth) flt writes to Parquet",
        help: "write them as JSON Lines (-f jsonl)")
    }
    (self.out, self.compression) = (out, compression)
    chunks = layout.leaves.map { LeafChunk(kind: $0.kind) }
    emit(Self.magic)
  }

  private static let magic: [UInt8] = Array("PAR1".utf8)

  /// Writes values alone: records need no text.
  public var readsRecordText: Bool { false }

  /// Why the file can no longer be written, or nil.
  public var failure: String? { out.failure ?? problem }

  /// Values written as null because they did not fit their field, times cut to the
  /// microsecond, and exact decimals written as text (their digits kept; Parquet's DECIMAL,
  /// whose scale is one per column, is not written yet).
  public var warnings: [String] {
    counted.warnings(format: "Parquet", decimals: "Parquet's DECIMAL")
  }

  /// Gathers one record; a full row group is written.
  public func write(_ record: DataRecord) {
    count += 1
    rows += 1
    for (slot, node) in layout.nodes.enumerated() {
      shred(slot < record.values.count ? record.values[slot] : .null, node, repetition: 0)
    }
    if rows >= rowGroupRows || bytes >= Self.rowGroupBytes { writeRowGroup() }
  }

  /// Writes the last row group and the footer.
  public func finish() {
    writeRowGroup()
    var footer = ThriftWriter()
    footer.structure { file in
      file.i32(1, 1)
      file.listOfElements(2, layout.elements)
      file.i64(3, Int64(count))
      file.list(4, rowGroups) { $0.rowGroup($1) }
      file.string(6, "flt")
      file.list(7, layout.leaves) { order, _ in order.structure(1) { _ in } }
    }
    emit(footer.bytes)
    let length = UInt32(truncatingIfNeeded: footer.bytes.count)
    emit((0..<4).map { UInt8(truncatingIfNeeded: length >> (8 * $0)) })
    emit(Self.magic)
    out.flush()
  }

  private func emit(_ bytes: [UInt8]) {
    out.write(bytes)
    written += bytes.count
  }

  // MARK: Shredding

  /// Adds `value`'s entries to the leaves of `node`: its values where they are, a null's or
  /// an empty list's entry (its definition level) in each leaf under it otherwise; the first
  /// entry at `repetition`, those of a list's later elements at the list's.
  private func shred(_ value: Value, _ node: ParquetLayout.Node, repetition: Int) {
    switch node {
    case .leaf(let index, let level):
      if !value.isNull, append(value, to: index) {
        entry(index, level, repetition)
      } else {
        if !value.isNull { counted.unstorable += 1 }
        entry(index, level - 1, repetition)
      }
    case .record(let fields, let level):
      guard case .record(let values) = value else {
        if !value.isNull { counted.unstorable += 1 }
        for leaf in node.leaves { entry(leaf, level - 1, repetition) }
        return
      }
      for (index, field) in fields.enumerated() {
        shred(index < values.count ? values[index] : .null, field, repetition: repetition)
      }
    case .list(let element, let level, let listRepetition):
      guard case .list(let items) = value, !items.isEmpty else {
        let isList = value == .list([])
        if !value.isNull && !isList { counted.unstorable += 1 }
        // A null list stops short of the list; an empty one reaches it, not an element.
        for leaf in node.leaves { entry(leaf, isList ? level : level - 1, repetition) }
        return
      }
      for (index, item) in items.enumerated() {
        shred(item, element, repetition: index == 0 ? repetition : listRepetition)
      }
    }
  }

  private func entry(_ leaf: Int, _ definition: Int, _ repetition: Int) {
    chunks[leaf].definitions.append(UInt32(definition))
    chunks[leaf].repetitions.append(UInt32(repetition))
  }

  /// Adds `value` to the values of leaf `index`; false when it does not fit the leaf.
  private func append(_ value: Value, to index: Int) -> Bool {
    switch (chunks[index].kind, value) {
    case (.bool, .bool(let bool)): chunks[index].bools.append(bool)
    case (.int, .int(let int)): chunks[index].ints.append(int)
    case (.double, .double(let double)): chunks[index].doubles.append(double)
    case (.double, .int(let int)): chunks[index].doubles.append(Double(int))
    case (.date, .date(let date)):
      guard let days = Int32(exactly: date.daysSinceEpoch) else { return false }
      chunks[index].ints.append(Int64(days))
    case (.dateTime, .dateTime(let time)):
      let (whole, overflow) = time.seconds.multipliedReportingOverflow(by: 1_000_000)
      let (micros, overflowAgain) = whole.addingReportingOverflow(Int64(time.nanoseconds / 1000))
      guard !overflow, !overflowAgain else { return false }
      if time.nanoseconds % 1000 != 0 { counted.cutTimes += 1 }
      chunks[index].ints.append(micros)
    case (.time, .time(let time)):
      if time.nanosecondsSinceMidnight % 1000 != 0 { counted.cutTimes += 1 }
      chunks[index].ints.append(time.nanosecondsSinceMidnight / 1000)
    case (.text, _):
      let text: String
      switch value {
      case .string(let string): text = string
      case .duration(let span): text = span.description
      case .decimal(let d):
        counted.decimalsAsText += 1
        text = d.description
      default: text = ValueText.plain(value)
      }
      chunks[index].texts.append(Array(text.utf8))
      bytes += text.utf8.count
    default: return false
    }
    bytes += 8
    return true
  }

  // MARK: Row groups

  private func writeRowGroup() {
    guard rows > 0, failure == nil else { return }
    var columns: [ChunkMetadata] = []
    var total = 0
    for (leaf, chunk) in zip(layout.leaves, chunks) {
      guard let metadata = writeChunk(chunk, leaf) else { return }
      columns.append(metadata)
      total += metadata.uncompressed
    }
    rowGroups.append(RowGroupMetadata(columns: columns, bytes: total, rows: rows))
    chunks = layout.leaves.map { LeafChunk(kind: $0.kind) }
    (rows, bytes) = (0, 0)
  }

  /// Writes a leaf's chunk: its dictionary page, where its text has one, and a data page.
  private func writeChunk(_ chunk: LeafChunk, _ leaf: ParquetLayout.Leaf) -> ChunkMetadata? {
    var metadata = ChunkMetadata(
      type: leaf.physical, path: leaf.path, entries: chunk.definitions.count,
      start: written, statistics: chunk.statistics(leaf))
    metadata.codec = compression == .snappy ? 1 : 0
    var values: [UInt8]
    var encoding: Int32 = 0
    if let (dictionary, indices) = chunk.dictionary() {
      metadata.dictionaryOffset = written
      var plain: [UInt8] = []
      for text in dictionary { plain += Self.lengthPrefixed(text) }
      guard writePage(plain, &metadata, type: 2, header: { $0.dictionaryPage(dictionary.count) })
      else { return nil }
      let width = Swift.max(1, Int.bitWidth - (dictionary.count - 1).leadingZeroBitCount)
      values = [UInt8(width)] + RLEHybrid.encode(indices, bitWidth: width)
      encoding = 8
      metadata.encodings = [0, 3, 8]
    } else {
      values = chunk.plain()
    }
    var body: [UInt8] = []
    if leaf.maxRepetition > 0 {
      body += Self.levels(chunk.repetitions, max: leaf.maxRepetition)
    }
    body += Self.levels(chunk.definitions, max: leaf.maxDefinition)
    body += values
    metadata.dataOffset = written
    let entries = chunk.definitions.count
    guard
      writePage(body, &metadata, type: 0, header: { $0.dataPage(entries, encoding: encoding) })
    else { return nil }
    return metadata
  }

  /// Writes a page of `body`, compressed, after its header (of page `type`, whose own fields
  /// `header` writes).
  private func writePage(
    _ body: [UInt8], _ metadata: inout ChunkMetadata, type: Int32,
    header: (inout ThriftWriter) -> Void
  ) -> Bool {
    let compressed = compression == .snappy ? Snappy.compress(body) : body
    guard let size = Int32(exactly: body.count), let stored = Int32(exactly: compressed.count)
    else {
      problem = "a page of \(body.count) bytes is more than Parquet can hold"
      return false
    }
    var writer = ThriftWriter()
    writer.structure { page in
      page.i32(1, type)
      page.i32(2, size)
      page.i32(3, stored)
      header(&page)
    }
    emit(writer.bytes)
    emit(compressed)
    metadata.uncompressed += writer.bytes.count + body.count
    metadata.compressed += writer.bytes.count + compressed.count
    return true
  }

  /// Levels as a data page v1 writes them: their length in 4 bytes, then the hybrid.
  private static func levels(_ levels: [UInt32], max: Int) -> [UInt8] {
    let encoded = RLEHybrid.encode(levels, bitWidth: Int.bitWidth - max.leadingZeroBitCount)
    return [UInt8](littleEndian: UInt32(encoded.count)) + encoded
  }

  static func lengthPrefixed(_ bytes: [UInt8]) -> [UInt8] {
    [UInt8](littleEndian: UInt32(truncatingIfNeeded: bytes.count)) + bytes
  }
}
