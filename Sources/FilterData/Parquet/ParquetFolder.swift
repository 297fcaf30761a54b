import FilterDSL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A folder of Parquet files as one source (``DataFolder``: the files under it, in the order
/// of their paths, with the fields their hive-style folders give): what `flt 'year == 2024'
/// sales/`, `load "sales/"` and `--schema sales/` read. Every file must have the first one's
/// fields, of the same types. Each file is opened in its turn (one open at a time), its row
/// groups ruled out by their statistics as a file's are, hive fields included: a filter on
/// `year` reads only the files under `year=2024`.
public final class ParquetFolder: RecordSource {
  /// The folder's path.
  public let name: String
  /// The first file's fields (with its partitions').
  public let schema: Schema
  private let files: [DataFolder.File]
  private var first: ParquetSource?
  private let size: Int
  private var bytesRead = 0
  private var decoding: Set<String>?
  private var pushed: (query: BoundQuery, parameters: [String: Value], now: Instant)?
  /// How many row groups the last read passed over, by their statistics, in the files it
  /// opened.
  public private(set) var skippedRowGroups = 0
  /// How many files the last read passed over unopened, by the values their folders' names
  /// give (`year=2023/` when the filter asks for `year == 2024`).
  public private(set) var skippedFiles = 0

  /// The Parquet files of `folder`; the first is opened for its schema.
  public init(_ folder: DataFolder, name: String) throws(DataError) {
    guard let file = folder.files.first else {
      throw DataError.file(name, "is a folder with no data files in it")
    }
    for other in folder.files where DataFormat(path: other.path) != .parquet {
      throw DataError.file(
        name,
        "holds \(other.path), which is not Parquet; a folder is read when it holds Parquet files alone (give other files by name: flt QUERY \(name)/*.jsonl)"
      )
    }
    (self.name, files) = (name, folder.files)
    let opened = try ParquetSource(path: file.path, partitions: file.partitions)
    (first, schema) = (opened, opened.schema)
    size = folder.files.reduce(0) { total, file in
      var info = stat()
      return total + (stat(file.path, &info) == 0 ? Int(info.st_size) : 0)
    }
  }

  /// How filters read the records.
  public var recordType: RecordType<DataRecord> { DataRecord.recordType(schema) }
  /// Bytes of column chunks read, and the files' sizes.
  public var progress: (done: Int, total: Int?) { (bytesRead + (first?.progress.done ?? 0), size) }

  /// Decodes only the columns called `fields` (nil: all), in every file.
  public func prepare(decoding fields: Set<String>?) { decoding = fields }

  /// Each file refuses a row group that would take the process past `bytes` decoded.
  public func limitMemory(to bytes: Int?) { memoryLimit = bytes }
  private var memoryLimit: Int?

  /// Takes nothing over; each file rules out row groups by the query's filter.
  public func pushDown(_ query: BoundQuery, parameters: [String: Value], now: Instant)
    -> BoundQuery?
  {
    pushed = (query, parameters, now)
    return nil
  }

  /// The number of records, from the footers, for a query with no filter and no page.
  public func count(_ query: BoundQuery, parameters: [String: Value], now: Instant) throws -> Int? {
    guard query.filter == nil, query.limit == nil, query.offset == nil else { return nil }
    var total = 0
    for index in files.indices {
      let (sum, overflow) = total.addingReportingOverflow(
        try open(index).count(query, parameters: parameters, now: now) ?? 0)
      guard !overflow else { throw DataError.file(name, "has more rows than flt can count") }
      total = sum
    }
    return total
  }

  /// How many row groups `query` reads in the files its folders' names leave, how many are
  /// ruled out by their statistics, and how many files by their folders' names.
  public func readingNote(_ query: BoundQuery, parameters: [String: Value], now: Instant)
    -> String?
  {
    var (total, skipped, opened) = (0, 0, 0)
    for index in files.indices where !ruledOut(index, query, parameters) {
      guard let file = try? open(index) else { continue }
      let groups = file.rowGroups(query, parameters: parameters)
      (total, skipped, opened) = (total + groups.total, skipped + groups.skipped, opened + 1)
    }
    let note = ParquetSource.note(total: total, skipped: skipped, files: opened)
    let unopened = files.count - opened
    guard unopened > 0 else { return note }
    return note
      + "; \(unopened) of \(files.count) file\(files.count == 1 ? "" : "s") ruled out by their "
      + "folders' names"
  }

  /// Whether the values the `index`th file's folders give (`year=2023/`) rule out every record
  /// `query`'s filter keeps: then the file is not opened.
  private func ruledOut(_ index: Int, _ query: BoundQuery, _ parameters: [String: Value]) -> Bool {
    let partitions = files[index].partitions
    guard let filter = query.filter, !partitions.isEmpty,
      partitions.count <= schema.fields.count
    else { return false }
    let statistics = ParquetStatistics(
      columns: Array(repeating: .unknown, count: schema.fields.count - partitions.count)
        + partitions.map { .constant($0.value) },
      parameters: parameters)
    return !statistics.mayMatch(filter, in: ParquetMetadata.RowGroup(rowCount: 1))
  }

  /// Hands over each file's row groups in turn.
  public func read(_ body: (DataBlock) throws -> Bool) throws {
    (skippedRowGroups, skippedFiles) = (0, 0)
    for index in files.indices {
      if let (query, parameters, _) = pushed, ruledOut(index, query, parameters) {
        skippedFiles += 1
        if index == 0 { first = nil }
        continue
      }
      let file = try open(index)
      file.prepare(decoding: decoding)
      file.limitMemory(to: memoryLimit)
      if let (query, parameters, now) = pushed {
        _ = file.pushDown(query, parameters: parameters, now: now)
      }
      var going = true
      try file.read { block in
        going = try body(block)
        return going
      }
      skippedRowGroups += file.skippedRowGroups
      bytesRead += file.progress.done
      if index == 0 { first = nil }
      guard going else { return }
    }
  }

  /// The `index`th file, opened; an error when its fields are not the first file's.
  private func open(_ index: Int) throws(DataError) -> ParquetSource {
    if index == 0, let first { return first }
    let file = files[index]
    let source = try ParquetSource(path: file.path, partitions: file.partitions)
    let (mine, theirs) = (source.schema.fields, schema.fields)
    guard mine.map(\.name) == theirs.map(\.name), mine.map(\.type) == theirs.map(\.type) else {
      throw DataError.file(
        file.path,
        "has other fields than \(files[0].path) (\(source.schema.names.joined(separator: ", "))); give files with different fields one at a time"
      )
    }
    return source
  }
}
