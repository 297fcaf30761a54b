import Dispatch
import FilterDSL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A Parquet file as a scan's source: its schema from the footer, and each row group read
/// straight into column batches (only the columns the query reads are decompressed and
/// decoded; the others are null), except a row group whose statistics show that no record of
/// it can match the query's filter (see ``readingNote(_:parameters:now:)``). A top-level
/// column's pages are decoded a batch of rows at a time (however many rows a page or a row
/// group claims, memory holds a batch of them and one page's bytes); a nested field is
/// assembled a row group at a time.
///
/// Read: columns at the top of the schema and nested ones (groups as records; repeated
/// elements, lists and maps as lists, at any depth: `ParquetSchema`), data pages v1 and v2
/// and dictionary pages, the PLAIN, dictionary, RLE, delta and byte-stream-split encodings,
/// uncompressed, snappy, gzip and zstd data, and the logical types booleans, integers of
/// every width and sign, floats, decimals, text, enums, JSON, UUIDs, dates, timestamps (ms,
/// µs, ns) and INT96. Anything else is an error naming the file and the column.
///
/// ```swift
/// let cheap = try Scan(query: SourceText("price < 500"), source: ParquetSource(path: "phones.parquet")).records()
/// ```
public final class ParquetSource: RecordSource {
  /// The file's path.
  public let name: String
  /// A field per column, in the file's order.
  public let schema: Schema
  /// The top-level fields, and the leaves of the schema (a column chunk each in a row group).
  let fields: [ParquetField]
  let columns: [ParquetColumn]
  let metadata: ParquetMetadata
  let file: RandomAccessFile
  let size: Int
  /// The top-level fields decoded (nil: all of them).
  var decoding: Set<String>?
  private var bytesRead = 0
  /// The filter of the query pushed down last, and its parameters' values: row groups whose
  /// statistics rule it out are not read.
  private var pruning: (filter: BoundExpr, statistics: ParquetStatistics)?
  /// How many row groups the last read passed over, by their statistics.
  public private(set) var skippedRowGroups = 0
  /// How many pages (of the columns a filter reads) the last read passed over, by their page
  /// index.
  public private(set) var skippedPages = 0

  /// The fields the folders the file lies in give its records (``DataFolder``), after its
  /// columns.
  let partitions: [DataFolder.Partition]

  /// Opens the Parquet file at `path` and reads its footer; its records also get the fields
  /// `partitions` (the hive-style folders it lies in).
  public init(path: String, partitions: [DataFolder.Partition] = []) throws(DataError) {
    name = path
    file = try RandomAccessFile(path: path, format: "Parquet")
    size = file.size
    do {
      let parquetSchema: ParquetSchema
      (metadata, parquetSchema) = try ParquetSource.footer(file, size: size)
      (fields, columns) = (parquetSchema.fields, parquetSchema.columns)
    } catch {
      throw DataError.file(path, error.message)
    }
    self.partitions = partitions
    for partition in partitions where fields.contains(where: { $0.name == partition.name }) {
      throw DataError.file(
        path,
        "has a column '\(partition.name)' and lies in a folder that gives the field again (\(partition.name)=...)"
      )
    }
    schema = Schema(
      fields.map { Schema.Field($0.name, $0.type, optional: $0.optional) }
        + partitions.map { Schema.Field($0.name, $0.type, optional: $0.value.isNull) })
  }

  /// How filters read the records.
  public var recordType: RecordType<DataRecord> { DataRecord.recordType(schema) }
  /// The schema is the file's own.
  public var isSchemaFinal: Bool { true }
  /// Bytes of column chunks read, and the file's size.
  public var progress: (done: Int, total: Int?) { (bytesRead, size) }

  /// Decodes only the columns called `fields` (nil: all).
  public func prepare(decoding fields: Set<String>?) { decoding = fields }

  /// Refuses a row group whose columns would take the process past `bytes` decoded.
  public func limitMemory(to bytes: Int?) { memoryLimit = bytes }
  private var memoryLimit: Int?

  /// About what decoding a row's value of a column holds (the value or its code, the null
  /// flag, the batch's column), in bytes: enough to refuse a row group that claims billions
  /// of rows before its columns are made, not a measure.
  static let bytesPerValue = 16

  /// Throws when decoding `values` values of `columns` columns of the `index`th row group,
  /// of `rows` rows, would take the process past ``limitMemory(to:)``'s limit.
  private func checkMemory(values: Int, rows: Int, columns: Int, index: Int) throws(DataError) {
    guard let limit = memoryLimit,
      let (need, resident) = ProcessMemory.values(values, of: Self.bytesPerValue, past: limit)
    else { return }
    let size = need.map { "about " + ProcessMemory.describe($0) } ?? "more than flt can count"
    throw DataError.file(
      name,
      "has \(rows) rows in row group \(index + 1): decoding \(columns == 1 ? "its column" : "\(columns) of its columns") takes \(size), past the memory limit of \(ProcessMemory.describe(limit)) (flt holds \(ProcessMemory.describe(resident))); raise the limit (--max-memory, set memory), or read fewer fields"
    )
  }

  /// Takes nothing over (the scan runs the whole query), but notes its filter: a row group
  /// whose statistics show that no record of it can match is not read.
  public func pushDown(_ query: BoundQuery, parameters: [String: Value], now: Instant)
    -> BoundQuery?
  {
    pruning = query.filter.map { ($0, statistics(parameters)) }
    return nil
  }

  /// The number of records, from the footer, for a query with no filter (or a constant one:
  /// `true`, `false`) and no page, as DuckDB counts them: no column is read, however many rows
  /// the footer claims; nil otherwise.
  public func count(_ query: BoundQuery, parameters: [String: Value], now: Instant) throws -> Int? {
    guard query.limit == nil, query.offset == nil else { return nil }
    switch query.filter?.constant {
    case nil where query.filter == nil, .bool(true)?: break
    case .bool(false)?, .null?: return 0
    default: return nil
    }
    var total = 0
    for group in metadata.rowGroups {
      guard group.rowCount >= 0, let rows = Int(exactly: group.rowCount) else {
        throw DataError.file(name, "has a row group of \(group.rowCount) rows")
      }
      let (sum, overflow) = total.addingReportingOverflow(rows)
      guard !overflow else { throw DataError.file(name, "has more rows than flt can count") }
      total = sum
    }
    return total
  }

  /// How many row groups `query` reads, and how many their statistics rule out.
  public func readingNote(_ query: BoundQuery, parameters: [String: Value], now: Instant)
    -> String?
  {
    let (total, skipped) = rowGroups(query, parameters: parameters)
    // Pages the page indexes rule out in the row groups read, when there are some.
    var pages = 0
    if let filter = query.filter {
      let statistics = statistics(parameters)
      for (index, group) in metadata.rowGroups.enumerated()
      where statistics.mayMatch(filter, in: group) {
        pages +=
          (try? selectedRows(filter, statistics, group, index: index, rows: Int(group.rowCount)))?.1
          ?? 0
      }
    }
    return Self.note(total: total, skipped: skipped)
      + (pages > 0 ? "; \(pages) page\(pages == 1 ? "" : "s") ruled out by the page index" : "")
  }

  /// How many row groups the file has, and how many of them `query`'s filter rules out.
  func rowGroups(_ query: BoundQuery, parameters: [String: Value]) -> (total: Int, skipped: Int) {
    let groups = metadata.rowGroups
    let statistics = statistics(parameters)
    let skipped =
      query.filter.map { filter in
        groups.filter { !statistics.mayMatch(filter, in: $0) }.count
      } ?? 0
    return (groups.count, skipped)
  }

  /// `parquet: reads 2 of 30 row groups (28 ruled out by their statistics)`, and the files
  /// when there are several.
  static func note(total: Int, skipped: Int, files: Int = 1) -> String {
    "parquet: reads \(total - skipped) of \(total) row group\(total == 1 ? "" : "s")"
      + (files > 1 ? " in \(files) files" : "")
      + (skipped > 0 ? " (\(skipped) ruled out by their statistics)" : "")
  }

  /// Hands over each row group as a batch.
  public func read(_ body: (DataBlock) throws -> Bool) throws {
    (skippedRowGroups, skippedPages) = (0, 0)
    // The place of the row group's first row among the file's rows (``FetchingSource``).
    var groupStart = 0
    for (index, group) in metadata.rowGroups.enumerated() {
      let firstRow = groupStart
      groupStart = groupStart.addingReportingOverflow(Int(clamping: group.rowCount)).partialValue
      if let (filter, statistics) = pruning, !statistics.mayMatch(filter, in: group) {
        skippedRowGroups += 1
        continue
      }
      let rows = Int(group.rowCount)
      guard rows >= 0, group.columns.count == columns.count else {
        throw DataError.file(name, "row group \(index + 1) does not have the file's columns")
      }
      // The rows the page indexes leave (nil: all of them).
      let (selection, pages) =
        try pruning.map { pruning throws(DataError) in
          try selectedRows(pruning.filter, pruning.statistics, group, index: index, rows: rows)
        } ?? (nil, 0)
      skippedPages += pages
      if let selection, selection.isEmpty { continue }
      let read = try readFields(of: group, index: index, rows: rows, selection: selection)
      let count = selection?.reduce(0) { $0 + $1.count } ?? rows
      // The rows a page index keeps, in order (nil: all of them).
      let selected = selection.map { $0.flatMap { $0 } }
      // Handed over in batches, so that only a batch's matches are records at once however
      // large the row group (writers make them of a million rows), and a top-level leaf's
      // pages are decoded a batch at a time.
      for start in stride(from: 0, to: count, by: ParquetSource.batchRows) {
        let slice = start..<Swift.min(count, start + ParquetSource.batchRows)
        let streamed = try next(slice.count, of: read, index: index)
        let columns =
          read.indices.map { field -> Column in
            switch read[field] {
            case .flat(let chunk): chunk.column(slice)
            case .streamed: streamed[field] ?? .values([])
            case .nested(let values): .values(Array(values[slice]))
            case nil:
              // (A column not read is null in every row: coded, whatever the field's type.)
              Column.coded([UInt32](repeating: 0, count: slice.count), values: [.null])
                ?? .values([Value](repeating: .null, count: slice.count))
            }
          }
          + partitions.map { .values([Value](repeating: $0.value, count: slice.count)) }
        guard let table = ColumnTable(schema: schema, columns: columns, sortZones: false) else {
          throw DataError.file(name, "row group \(index + 1) has columns of different types")
        }
        var batch = RecordBatch(table, source: name)
        batch.ordinals =
          selected.map { .list(Array($0[slice]).map { firstRow + $0 }) }
          ?? .from(firstRow + slice.lowerBound)
        guard try body(.batches([batch])) else { return }
      }
    }
  }

  /// A field's values in a row group: a top-level leaf's chunk, decoded whole (the rows a
  /// page index kept) or a batch at a time; or a nested field's values.
  enum RowGroupColumn {
    case flat(ParquetChunk)
    case streamed(ChunkStream)
    case nested([Value])
  }

  /// A top-level leaf's column chunk decoded as batches are asked for: its bytes (as the
  /// file holds them), and its decoder, which holds what it decoded and did not hand over.
  final class ChunkStream: @unchecked Sendable {
    // Unchecked: a stream is read by one thread at a time (a batch's fields each on a core
    // of its own, the batches in turn).
    let bytes: [UInt8]
    let rows: Int
    let name: String
    var decoder: ParquetChunk

    init(_ bytes: [UInt8], rows: Int, name: String, decoder: ParquetChunk) {
      (self.bytes, self.rows, self.name, self.decoder) = (bytes, rows, name, decoder)
    }

    /// The column of the next `count` rows.
    func next(_ count: Int) throws(ParquetError) -> Column {
      let wanted = decoder.read + count
      let result: Result<Void, ParquetError> = bytes.withUnsafeBytes { raw in
        Result { () throws(ParquetError) in try decoder.read(raw, rows: rows, upTo: wanted) }
      }
      try result.get()
      return decoder.take(count)
    }
  }

  /// The columns of the next `count` rows of each field of `read` decoded a batch at a time
  /// (nil for the others), of the `index`th row group: each on a core of its own.
  private func next(_ count: Int, of read: [RowGroupColumn?], index: Int) throws(DataError)
    -> [Column?]
  {
    let streams = read.map { column -> ChunkStream? in
      if case .streamed(let stream)? = column { stream } else { nil }
    }
    let wanted = streams.indices.filter { streams[$0] != nil }
    var results = [Result<Column, ParquetError>?](repeating: nil, count: streams.count)
    results.withUnsafeMutableBufferPointer { slots in
      let jobs = StreamJobs(streams: streams, slots: slots)
      DispatchQueue.concurrentPerform(iterations: wanted.count) { job in
        let slot = wanted[job]
        guard let stream = jobs.streams[slot] else { return }
        jobs.slots[slot] = Result { () throws(ParquetError) in try stream.next(count) }
      }
    }
    var columns: [Column?] = []
    for (slot, result) in results.enumerated() {
      do throws(ParquetError) {
        columns.append(try result?.get())
      } catch {
        throw DataError.file(
          name,
          "column '\(streams[slot]?.name ?? "")' of row group \(index + 1) \(error.message)")
      }
    }
    return columns
  }

  /// The streams of a batch's fields and the places of their results, shared by the threads
  /// that decode them.
  private struct StreamJobs: @unchecked Sendable {
    // Unchecked: each thread reads its own stream and writes its own slot; the caller reads
    // the slots once all are done.
    let streams: [ChunkStream?]
    let slots: UnsafeMutableBufferPointer<Result<Column, ParquetError>?>
  }

  /// The values of the fields decoded (nil for the others) in `group` (the `index`th, of
  /// `rows` rows; of the rows `selection` keeps, when given): each field read and decoded on
  /// a core of its own, as many at once as there are cores.
  func readFields(
    of group: ParquetMetadata.RowGroup, index: Int, rows: Int, selection: [Range<Int>]?
  ) throws(DataError) -> [RowGroupColumn?] {
    let named = fields.indices.filter { decoding?.contains(fields[$0].name) ?? true }
    // A query that reads no field still reads one, so that the rows handed over are rows
    // the file holds, not as many as its footer claims (any number, in empty batches).
    let first = fields.indices.first { fields[$0].isFlat } ?? fields.indices.first
    let wanted = named.isEmpty ? first.map { [$0] } ?? [] : named
    // (A top-level leaf read a batch at a time holds a batch's values; the others, whole.)
    let values = wanted.reduce(0) { sum, field in
      let whole = fields[field].isFlat && selection == nil ? Swift.min(rows, Self.batchRows) : rows
      return sum.addingReportingOverflow(whole).partialValue
    }
    try checkMemory(values: values, rows: rows, columns: wanted.count, index: index)
    var results = [Result<(RowGroupColumn, Int), DataError>?](repeating: nil, count: fields.count)
    results.withUnsafeMutableBufferPointer { slots in
      let jobs = FieldJobs(source: self, slots: slots)
      DispatchQueue.concurrentPerform(iterations: wanted.count) { job in
        let slot = wanted[job]
        jobs.slots[slot] = Result { () throws(DataError) in
          try jobs.source.read(
            jobs.source.fields[slot], of: group, index: index, rows: rows, selection: selection)
        }
      }
    }
    var read: [RowGroupColumn?] = []
    for result in results {
      guard let result else {
        read.append(nil)
        continue
      }
      let (column, bytes) = try result.get()
      bytesRead += bytes
      read.append(column)
    }
    return read
  }

  /// The source and the places of the fields' results, shared by the threads that read a
  /// row group's fields.
  private struct FieldJobs: @unchecked Sendable {
    // Unchecked: each thread writes its own slot, and reads the source's footer, schema and
    // file (`pread`), which no thread changes; the caller reads the slots once all are done.
    let source: ParquetSource
    let slots: UnsafeMutableBufferPointer<Result<(RowGroupColumn, Int), DataError>?>
  }

  /// `field`'s values in `group` (the `index`th), of `rows` rows (those `selection` keeps,
  /// when given: the field is a top-level leaf with an offset index), and the bytes read.
  private func read(
    _ field: ParquetField, of group: ParquetMetadata.RowGroup, index: Int, rows: Int,
    selection: [Range<Int>]?
  ) throws(DataError) -> (RowGroupColumn, Int) {
    var chunks: [ParquetChunk] = []
    var bytes = 0
    if let selection, field.isFlat {
      let leaf = field.leaves.lowerBound
      let pages = try pageIndex(group, leaf: leaf, index: index, rows: rows)
      do throws(ParquetError) {
        let (decoded, read) = try self.read(
          group.columns[leaf], of: columns[leaf], pages: pages, keeping: selection)
        return (.flat(decoded), read)
      } catch {
        throw DataError.file(
          name, "column '\(columns[leaf].name)' of row group \(index + 1) \(error.message)")
      }
    }
    for leaf in field.leaves {
      let column = columns[leaf]
      do throws(ParquetError) {
        let chunk = group.columns[leaf]
        if field.isFlat {
          // Decoded a batch at a time (``next(_:of:index:)``).
          let read = try self.bytes(of: chunk, column)
          var decoder = try ParquetChunk(column, codec: chunk.codec)
          decoder.memoryLimit = memoryLimit
          let stream = ChunkStream(read, rows: rows, name: column.name, decoder: decoder)
          return (.streamed(stream), read.count)
        }
        let entries = Int(exactly: chunk.valueCount) ?? -1
        guard entries >= 0 else { throw ParquetError("has \(chunk.valueCount) values") }
        let (decoded, read) = try self.read(chunk, of: column, rows: entries)
        chunks.append(decoded)
        bytes += read
      } catch {
        throw DataError.file(
          name, "column '\(column.name)' of row group \(index + 1) \(error.message)")
      }
    }
    if field.isFlat, let chunk = chunks.first { return (.flat(chunk), bytes) }
    var assembler = ParquetAssembler(chunks, leaves: field.leaves)
    do {
      return (.nested(try assembler.values(field.shape, rows: rows)), bytes)
    } catch {
      throw DataError.file(
        name, "column '\(field.name)' of row group \(index + 1) \(error.message)")
    }
  }

  /// What the statistics of the top-level leaves say, with `parameters`' values.
  private func statistics(_ parameters: [String: Value]) -> ParquetStatistics {
    ParquetStatistics(
      columns: fields.map { field in
        field.isFlat ? .chunk(columns[field.leaves.lowerBound], field.leaves.lowerBound) : .unknown
      } + partitions.map { .constant($0.value) }, parameters: parameters)
  }

  /// The most rows a batch holds.
  static let batchRows = 1 << 16

  /// The `rows` entries of `chunk`, read and decoded whole, and the bytes read.
  private func read(_ chunk: ParquetMetadata.ColumnChunk, of column: ParquetColumn, rows: Int)
    throws(ParquetError) -> (ParquetChunk, Int)
  {
    let bytes = try self.bytes(of: chunk, column)
    return (try Self.decode(bytes, column, codec: chunk.codec, rows: rows), bytes.count)
  }

  /// The `rows` entries of `column` the pages in `bytes` hold, decoded.
  static func decode(_ bytes: [UInt8], _ column: ParquetColumn, codec: Int32, rows: Int)
    throws(ParquetError) -> ParquetChunk
  {
    var decoder = try ParquetChunk(column, codec: codec)
    let result: Result<Void, ParquetError> = bytes.withUnsafeBytes { raw in
      Result { () throws(ParquetError) in try decoder.read(raw, rows: rows) }
    }
    try result.get()
    return decoder
  }
}
