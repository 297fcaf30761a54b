import FilterDSL

/// An Arrow IPC file (`.arrow`, `.feather`: Feather version 2) or stream (`.arrows`, or
/// standard input) as a scan's source: its schema from the file's footer or the stream's
/// first message, its dictionaries as they come, and each record batch handed over as column
/// batches (only the fields the query reads are decompressed and decoded; the others are
/// null).
///
/// Read: every type flt has a value for (integers of every width and sign, half, single and
/// double floats, decimals of 32 to 256 bits, text and bytes with 32-bit or 64-bit offsets
/// or as views, fixed-size bytes and UUIDs, dates, times, timestamps of every unit, durations
/// and intervals without months, lists of every layout, structs and maps at any depth),
/// dictionary-coded columns (replaced and extended by later dictionary batches), and buffers
/// uncompressed or compressed by LZ4 frames or zstd, as pyarrow, pandas and Polars write them
/// (each checked against files they wrote). Unions and run-end encoded columns are an error naming the column.
///
/// ```swift
/// let cheap = try Scan(query: SourceText("price < 500"), source: ArrowSource(path: "phones.arrow")).records()
/// ```
public final class ArrowSource: RecordSource {
  /// The file's path, or `<stdin>`.
  public let name: String
  /// A field per top-level column, in the file's order.
  public let schema: Schema
  let fields: [ArrowField]
  let messages: ArrowMessages
  /// The top-level fields decoded (nil: all of them).
  var decoding: Set<String>?
  private var memoryLimit: Int?

  /// Opens the Arrow file or stream at `path` (standard input for nil or `-`) and reads its
  /// schema.
  public convenience init(path: String?) throws(DataError) {
    try self.init(path: path, bytes: nil)
  }

  /// Opens `path`, or reads `bytes` (standard input whose first bytes were sniffed).
  init(path: String?, bytes: ByteInput?) throws(DataError) {
    let input: ByteInput
    if let bytes { input = bytes } else { input = try ByteInput(path: path) }
    name = input.name
    let arrowSchema: ArrowSchema
    do {
      let first = try input.peek(8)
      if first.starts(with: ArrowMessages.fileMagic), let path, !input.isCompressed,
        !input.isStream
      {
        let file = try RandomAccessFile(path: path, format: "Arrow")
        (messages, arrowSchema) = try ArrowMessages.file(file)
      } else {
        (messages, arrowSchema) = try ArrowMessages.stream(input)
      }
      fields = arrowSchema.fields
      schema = try arrowSchema.schema()
      // (Rows of no columns are records flt cannot hold: said, not read as none.)
      guard !fields.isEmpty else {
        throw ArrowError("has no columns; flt reads Arrow data of at least one")
      }
    } catch let error as ArrowError {
      throw DataError.file(input.name, error.message)
    } catch let error as DataError {
      throw error
    } catch {
      throw DataError.file(input.name, "\(error)")
    }
  }

  /// How filters read the records.
  public var recordType: RecordType<DataRecord> { DataRecord.recordType(schema) }
  /// Bytes read, and the file's size when known.
  public var progress: (done: Int, total: Int?) { (messages.bytesRead, messages.size) }

  /// Decodes only the columns called `fields` (nil: all).
  public func prepare(decoding fields: Set<String>?) { decoding = fields }

  /// Refuses a batch, or a buffer decompressed, that would take the process past `bytes`.
  public func limitMemory(to bytes: Int?) { memoryLimit = bytes }

  /// The number of records of a file, from its batches' headers, for a query with no filter
  /// (or a constant one) and no page: no buffer is read. Nil for a stream, which is read to
  /// be counted.
  public func count(_ query: BoundQuery, parameters: [String: Value], now: Instant) throws -> Int? {
    guard query.limit == nil, query.offset == nil, case .file = messages.kind else { return nil }
    switch query.filter?.constant {
    case nil where query.filter == nil, .bool(true)?: break
    case .bool(false)?, .null?: return 0
    default: return nil
    }
    do {
      return try messages.rowCount()
    } catch {
      throw DataError.file(name, error.message)
    }
  }

  /// The most rows a batch handed over holds.
  static let batchRows = 1 << 16

  /// Hands over each record batch, in batches of at most 65,536 rows, their rows
  /// numbered (``RecordBatch/ordinals``).
  public func read(_ body: (DataBlock) throws -> Bool) throws {
    var ordinal = 0
    try readBatches(wanted: { _ in true }) { batch, header in
      for start in stride(from: 0, to: header.length, by: Self.batchRows) {
        let rows = start..<Swift.min(header.length, start + Self.batchRows)
        var columns: [Column] = []
        for (index, array) in batch.arrays.enumerated() {
          guard batch.wanted[index] else {
            columns.append(
              Column.coded([UInt32](repeating: 0, count: rows.count), values: [.null])
                ?? .values([Value](repeating: .null, count: rows.count)))
            continue
          }
          columns.append(try batch.decoder.column(array, rows: rows))
        }
        guard let table = ColumnTable(schema: schema, columns: columns, sortZones: false) else {
          throw ArrowError("has a record batch whose columns are not of the schema's types")
        }
        var made = RecordBatch(table, source: name)
        made.ordinals = .from(ordinal + start)
        guard try body(.batches([made])) else { return false }
      }
      ordinal += header.length
      return true
    }
  }

  /// A record batch as read: its arrays, which of them are decoded, and their decoder.
  typealias Batch = (arrays: [ArrowArray], wanted: [Bool], decoder: ArrowDecoder)

  /// Reads the dictionaries, and calls `body` with each record batch `wanted` (asked of its
  /// header; in a stream, every batch is read) until it returns false.
  func readBatches(
    wanted: (ArrowBatchHeader) -> Bool, _ body: (Batch, ArrowBatchHeader) throws -> Bool
  ) throws {
    var dictionaries: [Int64: [Value]] = [:]
    let limit = memoryLimit
    do {
      let wants: (ArrowMessage) -> Bool = { message in
        if case .recordBatch(let header) = message { wanted(header) } else { true }
      }
      try messages.forEach(limit: limit, wanted: wants) { (message, data) throws in
        switch message {
        case .dictionary(let id, let header, let isDelta):
          guard let field = fields.dictionaryField(id) else {
            throw ArrowError("has a dictionary (id \(id)) that no column uses")
          }
          var valueField = field
          valueField.dictionary = nil
          let values = try decode(
            [valueField], header, data, dictionaries: dictionaries, limit: limit)
          let array = values.arrays[0]
          try values.decoder.checkValues(array, array.length)
          let made = try values.decoder.values(array, rows: 0..<array.length)
          dictionaries[id] = isDelta ? (dictionaries[id] ?? []) + made : made
          return true
        case .recordBatch(let header):
          let batch = try decode(fields, header, data, dictionaries: dictionaries, limit: limit)
          for array in batch.arrays where array.length != header.length {
            throw ArrowError(
              "has a record batch of \(header.length) rows whose column '\(array.field.name)' has \(array.length)"
            )
          }
          return try body(batch, header)
        case .schema, .other:
          return true
        }
      }
    } catch let error as ArrowError {
      throw DataError.file(name, error.message)
    }
  }

  /// The arrays of `fields` in the batch `header` describes, its body `data`, and a decoder
  /// of the fields wanted (their buffers decompressed).
  private func decode(
    _ fields: [ArrowField], _ header: ArrowBatchHeader, _ data: [UInt8],
    dictionaries: [Int64: [Value]], limit: Int?
  ) throws(ArrowError) -> (arrays: [ArrowArray], wanted: [Bool], decoder: ArrowDecoder) {
    let arrays = try ArrowArray.arrays(of: fields, in: header)
    // A query that reads no field still reads one, so that the rows handed over are the
    // batch's (checked against its first column), not only as many as its header claims.
    var wanted = arrays.map { decoding?.contains($0.field.name) ?? true }
    if !wanted.contains(true), !wanted.isEmpty { wanted[0] = true }
    var buffers = [ArrowBuffer?](repeating: nil, count: header.buffers.count)
    func take(_ array: ArrowArray) throws(ArrowError) {
      for index in array.buffers {
        buffers[index] = try ArrowBuffer(
          data, header.buffers[index], codec: header.codec, memoryLimit: limit)
      }
      for child in array.children { try take(child) }
    }
    for (index, array) in arrays.enumerated() where wanted[index] { try take(array) }
    // A batch's bytes bound how many elements its lists and dictionaries may claim (a null
    // array has no bytes: as many as a million).
    let bound = data.count.multipliedReportingOverflow(by: 8).partialValue
      .addingReportingOverflow(1 << 20).partialValue
    return (
      arrays, wanted,
      ArrowDecoder(
        buffers: buffers, dictionaries: dictionaries, bound: bound, memoryLimit: limit)
    )
  }
}

extension [ArrowField] {
  /// The field (at any depth) whose values dictionary `id` holds.
  func dictionaryField(_ id: Int64) -> ArrowField? {
    for field in self {
      if field.dictionary == id { return field }
      if let found = field.children.dictionaryField(id) { return found }
    }
    return nil
  }
}
