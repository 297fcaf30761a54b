import FilterDSL

/// Writes records as an Arrow IPC file (`flt -f arrow -o out.arrow`) or stream (`-f arrows`),
/// for pyarrow, pandas or Polars to read: the schema, then record batches of up to
/// ``batchRows`` records or about 64 MiB of values (buffers uncompressed, each 8-aligned),
/// then the end of the stream and, in a file, the footer that says where the batches lie.
///
/// Types: integers as 64-bit integers, decimals (binary) as doubles, text as UTF-8, true or
/// false as booleans, dates as `date32`, date-times as timestamps in µs (UTC), times of day
/// as `time64` in ns, durations as `duration` in ns, lists as lists, records as structs,
/// and exact decimals and fields of mixed values as text (digits kept, counted in a warning
/// for decimals). A value that does not fit its field (text in an integer field) is written
/// as null and counted (``warnings``), never dropped unsaid; fractions of a date-time finer
/// than a microsecond are cut, and counted.
public final class ArrowWriter: RecordSink {
  /// How many records were written.
  public private(set) var count = 0
  private let schema: Schema
  private let out: OutputSink
  /// The records of the batch being gathered.
  private var rows: [[Value]] = []
  /// About how many bytes of values they hold.
  private var bytes = 0
  /// Whether the stream format is written (no magic, no footer).
  private let stream: Bool
  /// Bytes written so far (offsets in the file), and where each batch's message lies.
  private var written = 0
  private var blocks: [[Int64]] = []
  private var counted = WrittenValues()

  /// The most records a batch holds.
  public let batchRows: Int

  /// About the most bytes of values a batch gathers before it is written (text offsets are
  /// 32 bits).
  static let batchBytes = 64 << 20

  /// A writer of records of `schema` to `out`, as a file (or as a stream, when `stream`), in
  /// batches of at most `batchRows` records; writes the file's first bytes and its schema.
  public init(schema: Schema, to out: OutputSink, stream: Bool = false, batchRows: Int = 65_536)
    throws(ScanError)
  {
    let depth = ArrowWriter.depth(of: schema)
    guard depth <= ArrowSchema.maxDepth else {
      throw ScanError(
        message:
          "the records are nested \(depth) levels deep, deeper than the \(ArrowSchema.maxDepth) flt writes to Arrow",
        help: "write them as JSON Lines (-f jsonl)")
    }
    (self.schema, self.out, self.batchRows) = (schema, out, Swift.max(1, batchRows))
    self.stream = stream
    if !stream { emit(ArrowMessages.fileMagic + [0, 0]) }
    emit(message(header: 1, schemaTable(), body: 0))
  }

  /// Writes values alone: records need no text.
  public var readsRecordText: Bool { false }
  /// Writes records.
  public var writesRecords: Bool { true }
  /// Why the file can no longer be written, or nil.
  public var failure: String? { out.failure }

  /// Values written as null because they did not fit their field, exact decimals written as
  /// text, and times cut to the microsecond.
  public var warnings: [String] {
    counted.warnings(format: "Arrow", decimals: "Arrow's decimals")
  }

  /// Gathers one record; a full batch is written.
  public func write(_ record: DataRecord) {
    count += 1
    rows.append(record.values)
    for value in record.values { bytes += Self.size(value) }
    if rows.count >= batchRows || bytes >= Self.batchBytes { writeBatch() }
  }

  /// About the bytes `value` takes in buffers.
  private static func size(_ value: Value) -> Int {
    switch value {
    case .string(let text): 8 + text.utf8.count
    case .list(let items), .record(let items): items.reduce(8) { $0 + size($1) }
    case .object(let object): 8 + ValueText.plain(.object(object)).utf8.count
    default: 8
    }
  }

  /// Writes the last batch, the end of the stream, and the footer.
  public func finish() {
    writeBatch()
    emit([0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0])
    if stream {
      out.flush()
      return
    }
    let footer = FlatObject.table([
      0: .int16(4),
      1: .object(schemaTable()),
      2: .object(.structs([])),
      3: .object(.structs(blocks)),
    ]).serialized()
    emit(footer)
    emit([UInt8](littleEndian: Int32(truncatingIfNeeded: footer.count)))
    emit(ArrowMessages.fileMagic)
    out.flush()
  }

  private func emit(_ bytes: [UInt8]) {
    out.write(bytes)
    written += bytes.count
  }

  // MARK: Messages

  /// A message: the continuation marker, the metadata's length, the metadata (padded so that
  /// the body starts 8-aligned), for a header of `kind` (1 a schema, 3 a record batch).
  private func message(header kind: UInt8, _ header: FlatObject, body: Int) -> [UInt8] {
    var metadata = FlatObject.table([
      0: .int16(4), 1: .int8(kind), 2: .object(header), 3: .int64(Int64(body)),
    ]).serialized()
    while (metadata.count + 8) % 8 != 0 { metadata.append(0) }
    return [0xFF, 0xFF, 0xFF, 0xFF] + [UInt8](littleEndian: Int32(metadata.count)) + metadata
  }

  /// The `Schema` table of the records' fields.
  private func schemaTable() -> FlatObject {
    .table([1: .object(.tables(schema.fields.map { Self.field($0.name, $0.type) }))])
  }

  /// A `Field` table: its name, nullable (every field is), its type and its children.
  private static func field(_ name: String, _ type: ValueType) -> FlatObject {
    let (kind, details, children) = arrowType(type)
    return .table([
      0: .object(.string(name)), 1: .bool(true), 2: .int8(kind), 3: .object(.table(details)),
      5: .object(.tables(children)),
    ])
  }

  /// The number of `type`'s Arrow type (`Type` in `Schema.fbs`), its table's fields, and
  /// the fields of its children.
  private static func arrowType(_ type: ValueType) -> (UInt8, [Int: FlatObject.Field], [FlatObject])
  {
    switch type {
    case .null: (1, [:], [])
    case .int: (2, [0: .int32(64), 1: .bool(true)], [])
    case .double: (3, [0: .int16(2)], [])
    case .bool: (6, [:], [])
    case .date: (8, [0: .int16(0)], [])
    case .time: (9, [0: .int16(3), 1: .int32(64)], [])
    case .dateTime: (10, [0: .int16(2), 1: .object(.string("UTC"))], [])
    case .duration: (18, [0: .int16(3)], [])
    case .list(let element): (12, [:], [field("item", element)])
    case .record(let fields): (13, [:], fields.fields.map { field($0.name, $0.type) })
    case .string, .decimal, .any: (5, [:], [])
    }
  }

  /// How deep `schema`'s fields nest (1 for a flat one).
  private static func depth(of schema: Schema) -> Int {
    func depth(_ type: ValueType) -> Int {
      switch type {
      case .list(let element): 1 + depth(element)
      case .record(let fields): 1 + (fields.fields.map { depth($0.type) }.max() ?? 0)
      default: 0
      }
    }
    return schema.fields.map { 1 + depth($0.type) }.max() ?? 0
  }

  // MARK: Batches

  /// What a batch's arrays come to: each array's length and nulls, its buffers, in order.
  private struct Body {
    var nodes: [[Int64]] = []
    var buffers: [[UInt8]] = []
  }

  /// Writes the records gathered as a record batch.
  private func writeBatch() {
    guard !rows.isEmpty else { return }
    var body = Body()
    for (slot, field) in schema.fields.enumerated() {
      add(rows.map { slot < $0.count ? $0[slot] : .null }, field.type, to: &body)
    }
    var places: [[Int64]] = []
    var data: [UInt8] = []
    for buffer in body.buffers {
      places.append([Int64(data.count), Int64(buffer.count)])
      data += buffer
      while data.count % 8 != 0 { data.append(0) }
    }
    let header = FlatObject.table([
      0: .int64(Int64(rows.count)), 1: .object(.structs(body.nodes)),
      2: .object(.structs(places)),
    ])
    let metadata = message(header: 3, header, body: data.count)
    blocks.append([Int64(written), Int64(metadata.count), Int64(data.count)])
    emit(metadata)
    emit(data)
    rows.removeAll(keepingCapacity: true)
    bytes = 0
  }

  /// Adds the array of `values`, of `type`, to `body`: its node, its buffers, its children's.
  private func add(_ values: [Value], _ type: ValueType, to body: inout Body) {
    // Each value as the type stores it, nil for null (or a value that does not fit).
    var validity = [UInt8](repeating: 0, count: (values.count + 7) / 8)
    var nulls = 0
    func mark(_ row: Int, _ present: Bool) {
      if present { validity[row >> 3] |= 1 << UInt8(row & 7) } else { nulls += 1 }
    }
    func fixed<T: FixedWidthInteger>(_ make: (Value) -> T?) -> [UInt8] {
      var data: [UInt8] = []
      data.reserveCapacity(values.count * MemoryLayout<T>.size)
      for (row, value) in values.enumerated() {
        let made = value.isNull ? nil : make(value)
        if !value.isNull && made == nil { counted.unstorable += 1 }
        mark(row, made != nil)
        data.appendLittleEndian(made ?? 0)
      }
      return data
    }
    var buffers: [[UInt8]] = []
    var children: [([Value], ValueType)] = []
    switch type {
    case .null:
      body.nodes.append([Int64(values.count), Int64(values.count)])
      return
    case .int:
      buffers = [fixed { Self.int($0) }]
    case .double:
      buffers = [fixed { Self.double($0).map(\.bitPattern) }]
    case .bool:
      var bits = [UInt8](repeating: 0, count: (values.count + 7) / 8)
      for (row, value) in values.enumerated() {
        guard case .bool(let bool) = value else {
          if !value.isNull { counted.unstorable += 1 }
          mark(row, false)
          continue
        }
        mark(row, true)
        if bool { bits[row >> 3] |= 1 << UInt8(row & 7) }
      }
      buffers = [bits]
    case .date:
      buffers = [
        fixed { value -> Int32? in
          guard case .date(let date) = value else { return nil }
          return Int32(exactly: date.daysSinceEpoch)
        }
      ]
    case .dateTime:
      buffers = [
        fixed { value -> Int64? in
          guard case .dateTime(let time) = value else { return nil }
          let (whole, overflow) = time.seconds.multipliedReportingOverflow(by: 1_000_000)
          let (micros, past) = whole.addingReportingOverflow(Int64(time.nanoseconds / 1000))
          guard !overflow, !past else { return nil }
          if time.nanoseconds % 1000 != 0 { counted.cutTimes += 1 }
          return micros
        }
      ]
    case .time:
      buffers = [
        fixed { value -> Int64? in
          guard case .time(let time) = value else { return nil }
          return time.nanosecondsSinceMidnight
        }
      ]
    case .duration:
      buffers = [
        fixed { value -> Int64? in
          guard case .duration(let span) = value else { return nil }
          return span.nanoseconds
        }
      ]
    case .string, .decimal, .any:
      var offsets: [UInt8] = [UInt8](littleEndian: Int32(0))
      var data: [UInt8] = []
      for (row, value) in values.enumerated() {
        mark(row, !value.isNull)
        if !value.isNull { data += Array(text(value).utf8) }
        offsets.appendLittleEndian(Int32(truncatingIfNeeded: data.count))
      }
      buffers = [offsets, data]
    case .list(let element):
      var offsets: [UInt8] = [UInt8](littleEndian: Int32(0))
      var items: [Value] = []
      for (row, value) in values.enumerated() {
        if case .list(let list) = value {
          items += list
          mark(row, true)
        } else {
          if !value.isNull { counted.unstorable += 1 }
          mark(row, false)
        }
        offsets.appendLittleEndian(Int32(truncatingIfNeeded: items.count))
      }
      buffers = [offsets]
      children = [(items, element)]
    case .record(let fields):
      var columns = [[Value]](repeating: [], count: fields.fields.count)
      for (row, value) in values.enumerated() {
        guard case .record(let record) = value else {
          if !value.isNull { counted.unstorable += 1 }
          mark(row, false)
          for index in columns.indices { columns[index].append(.null) }
          continue
        }
        mark(row, true)
        for index in columns.indices {
          columns[index].append(index < record.count ? record[index] : .null)
        }
      }
      children = Array(zip(columns, fields.fields.map(\.type)))
    }
    body.nodes.append([Int64(values.count), Int64(nulls)])
    body.buffers.append(nulls > 0 ? validity : [])
    body.buffers += buffers
    for (values, type) in children { add(values, type, to: &body) }
  }

  /// An integer field's value: an integer, or a double that is a whole one.
  private static func int(_ value: Value) -> Int64? {
    switch value {
    case .int(let n): n
    case .double(let d): Int64(exactly: d)
    default: nil
    }
  }

  /// A double field's value: any number, as the nearest double.
  private static func double(_ value: Value) -> Double? {
    switch value {
    case .double(let d): d
    case .int(let n): Double(n)
    case .decimal(let d): d.doubleValue
    default: nil
    }
  }

  /// A text field's value: text as it is, exact decimals by their digits (counted), anything
  /// else as its plain text (JSON for lists and records of a field of mixed values).
  private func text(_ value: Value) -> String {
    switch value {
    case .string(let string): return string
    case .decimal(let d):
      counted.decimalsAsText += 1
      return d.description
    default: return ValueText.plain(value)
    }
  }
}
