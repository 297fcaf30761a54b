// libFuzzer harness for the data readers: any bytes, read as JSON, JSON Lines, CSV and TSV
// (and, when they start with a compressed format's magic, decompressed), whole (inputs are at
// most 2 KiB) and in blocks of a size chosen by the input's first byte (each buffer read in
// two parts at once where it can be), must give the same schema and records or the same
// error, and never crash; loaded into columns (as sessions load), or read block by block by
// column (as the one-shot command reads), the same rows as read as records. Build and run
// with `Fuzz/run readers`.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Everything a reader gives for a file: schema and records, or the error.
struct FuzzContents: Equatable {
  var schema: Schema
  var values: [[Value]]
  var texts: [[UInt8]]
}

func fuzzRead(_ path: String, _ format: DataFormat, blockSize: Int, inParts: Bool) -> Result<
  FuzzContents, FuzzFailure
> {
  do throws(DataError) {
    let reader = try DataReader(path: path, format: format, blockSize: blockSize)
    reader.readsInParts = inParts
    var contents = FuzzContents(schema: reader.schema, values: [], texts: [])
    while let block = try reader.next() {
      for record in block {
        contents.values.append(record.values)
        contents.texts.append(Array(record.text))
      }
    }
    return .success(contents)
  } catch {
    return .failure(FuzzFailure(message: error.description))
  }
}

struct FuzzFailure: Error, Equatable { var message: String }

/// Every row of `path` loaded into columns as a session loads it (in two parts at once, a
/// coded value taken by its spelling), or the error; or, `asRecords`, the same rows read as
/// records in turn, appended to a builder, those read before the schema widened read again.
/// The schema is inferred from the first `sample` records, so that it grows as it is read.
func fuzzLoad(
  _ path: String, _ format: DataFormat, blockSize: Int, sample: Int, asRecords: Bool
) -> Result<[String], FuzzFailure> {
  do throws(DataError) {
    let reader = try DataReader(
      path: path, format: format, blockSize: blockSize, sample: sample)
    let table: ColumnTable
    var texts: [[UInt8]] = []
    var present: [String] = []
    if asRecords {
      reader.readsInParts = false
      var (builder, records, stale) = (ColumnBuilder(), [DataRecord](), 0)
      while let block = try reader.next() {
        for record in block { builder.append(record.values) }
        records += block
        if reader.takeSchemaChanges().contains(where: { !$0.isNewField }) { stale = records.count }
      }
      for row in 0..<stale {
        builder.replace(row: row, with: reader.redecoded(records[row]).values)
      }
      table = builder.finish(reader.schema)
      texts = records.map { Array($0.text) }
      present = fuzzPresence(records, DataRecord.recordType(table.schema), table.schema) {
        $1 < $0.values.count ? $0.values[$1] : .null
      }
    } else {
      let loaded = try LoadedRecords(reading: reader)
      table = loaded.table
      texts = loaded.records(Array(0..<loaded.count)).map { Array($0.text) }
      present = fuzzPresence(table.rows, table.recordType, table.schema) {
        table.value(row: $0, slot: $1)
      }
    }
    return .success(texts.indices.map { fuzzRow(table, $0, texts[$0]) + " " + present[$0] })
  } catch {
    return .failure(FuzzFailure(message: error.description))
  }
}

/// Every row of `path` read block by block, by column (as the one-shot command reads) or as
/// records, each block's rows as a table of its own would hold them, or the error.
func fuzzBlocks(
  _ path: String, _ format: DataFormat, blockSize: Int, sample: Int, byColumn: Bool
) -> Result<[String], FuzzFailure> {
  do throws(DataError) {
    let reader = try DataReader(
      path: path, format: format, blockSize: blockSize, sample: sample)
    var rows: [String] = []
    func add(_ table: ColumnTable, _ records: [DataRecord]) {
      for (row, record) in records.enumerated() { rows.append(fuzzRow(table, row, record.text)) }
    }
    while let block = try reader.nextBlock(byColumn: byColumn) {
      switch block {
      case .records(let records):
        var builder = ColumnBuilder()
        for record in records { builder.append(record.values) }
        add(builder.finish(reader.schema), records)
      case .batches(let batches):
        for batch in batches { add(batch.table, batch.records(batch.table.rows)) }
      }
    }
    return .success(rows)
  } catch {
    return .failure(FuzzFailure(message: error.description))
  }
}

/// For each of `records`, which fields of `schema` (and of its nested records) it has, as
/// `exists` asks through `type`: a key present with null exists, a missing one does not. A
/// load (which notes the keys present with null as it reads) and records read in turn (which
/// answer from their text) must agree. (Not compared block by block: a filter compiled per
/// block and field halved the runs; `PresenceTests` reads by column and by record.)
func fuzzPresence<Root>(
  _ records: [Root], _ type: RecordType<Root>, _ schema: Schema, value: (Root, Int) -> Value
) -> [String] {
  var fields: [FieldRef] = []
  for field in schema.fields.prefix(5) {
    var paths = [FieldPath([Name(field.name)])]
    if case .record(let inner) = field.type {
      paths += inner.fields.prefix(3).map { FieldPath([Name(field.name), Name($0.name)]) }
    }
    for path in paths { if case .success(let ref) = schema.resolve(path) { fields.append(ref) } }
  }
  // (As the compiled `exists` asks: a value, or the record type's presence test. Not through
  // compiled filters: one per field per read halved the runs.)
  let tests = fields.map { type.presence?($0) }
  return records.map { record in
    String(
      zip(fields, tests).map { field, test in
        let read = Compiler<Root>.walk(value(record, field.slot), field.steps.dropFirst())
        return !read.isNull || test?(record) == true ? "1" : "0"
      })
  }
}

/// Row `row` of `table` and its text, as the comparisons above print it.
func fuzzRow(_ table: ColumnTable, _ row: Int, _ text: some Collection<UInt8>) -> String {
  "\(table.row(row)) \(String(decoding: text, as: UTF8.self))"
}

nonisolated(unsafe) let fuzzFolder: String = {
  var template = Array("/tmp/flt-fuzz-readers-XXXXXX".utf8CString)
  let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
  precondition(made != nil, "cannot make a temporary folder")
  return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}()

/// Writes the fuzzer's input to the file `name` in the harnesses' folder; returns its path.
func fuzzWrite(_ data: UnsafePointer<UInt8>, _ size: Int, to name: String) -> String {
  let path = fuzzFolder + "/" + name
  guard let file = fopen(path, "wb") else { fatalError("cannot write \(path)") }
  if size > 0 { fwrite(data, 1, size, file) }
  fclose(file)
  return path
}

public func fuzzReaders(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let path = fuzzWrite(data, size, to: "input")
  let small = 1 + Int(bytes.first ?? 0) % 64
  for format in [DataFormat.json, .jsonl, .csv, .tsv] {
    let whole = fuzzRead(path, format, blockSize: 4096, inParts: false)
    let pieces = fuzzRead(path, format, blockSize: small, inParts: true)
    if whole != pieces {
      fatalError("\(format) read differently at block size \(small):\n\(whole)\n\(pieces)")
    }
    let sample = 1 + Int(bytes.last ?? 0) % 16
    let columns = fuzzLoad(path, format, blockSize: small, sample: sample, asRecords: false)
    let records = fuzzLoad(path, format, blockSize: small, sample: sample, asRecords: true)
    if columns != records {
      fatalError(
        "\(format) loaded otherwise than read, block size \(small):\n\(columns)\n\(records)")
    }
    // (Blocks of a few records: at a block a record, tables of one row halve the runs.)
    let batches = fuzzBlocks(path, format, blockSize: 256, sample: sample, byColumn: true)
    let blocks = fuzzBlocks(path, format, blockSize: 256, sample: sample, byColumn: false)
    if batches != blocks {
      fatalError("\(format) read by column otherwise:\n\(batches)\n\(blocks)")
    }
  }
  return 0
}
