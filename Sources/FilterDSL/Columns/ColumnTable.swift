import Dispatch

/// Records held by column: one ``Column`` per top-level field of a schema, every column with
/// the same number of rows. What a session keeps of a loaded file, instead of a row of
/// values per record.
///
/// Filters read it through ``recordType``, whose records are row numbers: every query,
/// count and facet runs on it as on any record type, and filters select over the column
/// buffers (see `VectorCompiler`) instead of testing row by row.
///
/// ```swift
/// var builder = ColumnBuilder()
/// for row in rows { builder.append(row) }
/// let table = builder.finish(schema)
/// let cheap = try CompiledFilter("price < 500", for: table.recordType)
/// let matches = cheap.filter(table.rows).matches  // row numbers
/// ```
public final class ColumnTable: Sendable {
  /// The fields, one column per field, in order.
  public let schema: Schema
  /// How many rows.
  public let count: Int
  /// The columns, by slot of ``schema``.
  public let columns: [Column]

  /// Every row number, in order: the records to give a filter or query over the whole table.
  /// (One array, made once: given it, a filter knows that each position is its row.)
  public let rows: [Int]
  /// Which rows have a field though its value is null (what `exists` asks): by default, a
  /// field exists where it has a value.
  public let presence: FieldPresence

  /// Each column's ``SortZones`` (nil for a column that has none), for a table that is
  /// held and queried again and again (``withSortZones()``); none for one made to be
  /// filtered once (a block of a file, a row group of Parquet).
  let zones: [SortZones?]

  /// `rows` is another table's of the same count (nil: made here): a table derived from
  /// another (its zones, its presence, its known values) shares it (a copy of a million rows'
  /// numbers, and its page faults, took 4% of a load each time).
  init(
    schema: Schema, count: Int, columns: [Column], presence: FieldPresence = .values,
    zones: [SortZones?] = [], rows: [Int]? = nil
  ) {
    self.schema = schema
    self.count = count
    self.columns = columns
    self.presence = presence
    self.rows = rows.flatMap { $0.count == count ? $0 : nil } ?? Self.rowNumbers(count)
    self.zones = zones
  }

  /// `0..<count` as an array; a big one written on both cores (most of its cost is the
  /// faults of its new pages: 3 ms for a million rows on one core).
  static func rowNumbers(_ count: Int) -> [Int] {
    guard count >= 1 << 16 else { return Array(0..<Swift.max(0, count)) }
    return [Int](unsafeUninitializedCapacity: count) { buffer, initialized in
      let rows = RowNumbers(buffer: buffer)
      DispatchQueue.concurrentPerform(iterations: 2) { half in
        rows.write(half == 0 ? 0..<count / 2 : count / 2..<count)
      }
      initialized = count
    }
  }

  /// This table with its columns' ``SortZones``, if it is big enough for them to pay
  /// (``SortZones/leastRows``) and has none yet: what a session keeps of a loaded file, and
  /// an embedder's table.
  package func withSortZones() -> ColumnTable {
    guard count >= SortZones.leastRows, zones.isEmpty else { return self }
    return ColumnTable(
      schema: schema, count: count, columns: columns, presence: presence,
      zones: SortZones.of(columns), rows: rows)
  }

  /// This table, whose rows have fields with a null value as `presence` says (a table of a
  /// CSV file's rows: ``FieldPresence/columns``).
  public func withPresence(_ presence: FieldPresence) -> ColumnTable {
    ColumnTable(
      schema: schema, count: count, columns: columns, presence: presence, zones: zones, rows: rows)
  }

  /// Whether `records` is ``rows`` itself (the same buffer): a position in it is its row.
  func isEveryRow(_ records: [Int]) -> Bool {
    records.count == count
      && records.withUnsafeBufferPointer { given in
        rows.withUnsafeBufferPointer { own in given.baseAddress == own.baseAddress }
      }
  }

  /// A table of `rows` (values by slot of `schema`; a missing slot is null).
  public convenience init(schema: Schema, rows: [[Value]]) {
    self.init(schema: schema, rows: rows, codedLimit: 4096)
  }

  /// A table of `rows` whose columns code at most `codedLimit` distinct values (text and
  /// true-or-false values aside), sparse where fewer than `sparseShare` of the rows have a
  /// value (2 makes every column sparse).
  convenience init(
    schema: Schema, rows: [[Value]], codedLimit: Int, sparseShare: Double = 1.0 / 16
  ) {
    var builder = ColumnBuilder(codedLimit: codedLimit, sparseShare: sparseShare)
    for row in rows { builder.append(row) }
    let table = builder.finish(schema).withSortZones()
    self.init(
      schema: schema, count: table.count, columns: table.columns, zones: table.zones,
      rows: table.rows)
  }

  /// The value of field `slot` in row `row` (null outside the table).
  public func value(row: Int, slot: Int) -> Value {
    slot >= 0 && slot < columns.count ? columns[slot].value(at: row) : .null
  }

  /// The values of row `row`, by slot.
  public func row(_ row: Int) -> [Value] {
    columns.map { $0.value(at: row) }
  }

  /// How filters read the table: records are row numbers (a number outside the table reads
  /// as a record of nulls), fields are read from their columns, and a compiled filter selects
  /// over whole columns.
  public var recordType: RecordType<Int> {
    let accessors = schema.fields.enumerated().map { slot, field in
      FieldAccessor<Int>(
        field: field, reader: ColumnTable.reader(columns[slot], type: field.type))
    }
    var present: (@Sendable (FieldRef) -> (@Sendable (Int) -> Bool)?)? = nil
    if presence.asksRecords {
      present = { [self] field in presence.test(field, in: self) }
    }
    return RecordType(
      fields: accessors,
      presence: present,
      gather: { [self] records, indices, gathered in
        // Positions in every row are the rows (ascending, from a selection).
        if isEveryRow(records), let first = indices.first, let last = indices.last, first >= 0,
          last < count, first <= last
        {
          gathered.append(contentsOf: indices)
          return
        }
        gathered.reserveRoom(for: indices.count)
        records.withUnsafeBufferPointer { records in
          for index in indices where index >= 0 && index < records.count {
            gathered.append(records[index])
          }
        }
      },
      columns: ColumnAccess(
        vectorize: { [self] bound in VectorCompiler(table: self).selector(bound) },
        countCodes: { [self] field in countCodes(field) },
        fieldValues: { [self] field in fieldValues(field) },
        sortKeys: { [self] field in sortKeys(field) },
        sortBound: { [self] field, descending, nullsFirst, ties in
          sortBound(field, descending: descending, nullsFirst: nullsFirst, ties: ties)
        },
        codedColumn: { [self] field in codedColumn(field) },
        numbers: { [self] field in numbers(field) }))
  }

  /// The values of the picked rows (0 for null), and whether each has one.
  private static func gather<Number: Numeric>(
    _ values: [Number], _ nulls: NullMask, _ pick: RecordPick<Int>, identity: Bool,
    _ out: UnsafeMutablePointer<Number>, _ present: UnsafeMutablePointer<Bool>
  ) {
    values.withUnsafeBufferPointer { values in
      if identity, nulls.words.isEmpty {
        pick.forEachIndex { n, row in
          let inside = UInt(bitPattern: row) < UInt(values.count)
          out[n] = inside ? values[row] : 0
          present[n] = inside
        }
        return
      }
      pick.forEachRow(identity: identity) { n, row in
        let inside = row >= 0 && row < values.count && !nulls.isNull(row)
        out[n] = inside ? values[row] : 0
        present[n] = inside
      }
    }
  }

  /// For a top-level field held as integers or decimals: the gathering of their values.
  private func numbers(_ field: FieldRef) -> NumberColumn<Int>? {
    guard field.isTopLevel, field.slot < columns.count else { return nil }
    switch columns[field.slot].storage {
    case .int(let values, let nulls):
      return .ints { [self] in
        Self.gather(values, nulls, $0, identity: isEveryRow($0.records), $1, $2)
      }
    case .double(let values, let nulls):
      return .doubles { [self] in
        Self.gather(values, nulls, $0, identity: isEveryRow($0.records), $1, $2)
      }
    default:
      return nil
    }
  }

  /// For a top-level field whose column is coded: its codes and distinct values.
  private func codedColumn(_ field: FieldRef) -> CodedColumn<Int>? {
    guard field.isTopLevel, field.slot < columns.count,
      case .coded(let codes, let dictionary) = columns[field.slot].storage
    else { return nil }
    return CodedColumn(
      codes: { rows in
        rows.withUnsafeBufferPointer { rows in
          [UInt32](unsafeUninitializedCapacity: rows.count) { gathered, initialized in
            func gather<Code: FixedWidthInteger>(_ codes: UnsafeBufferPointer<Code>) {
              for index in rows.indices {
                let row = rows[index]
                gathered[index] = row >= 0 && row < codes.count ? UInt32(codes[row]) : 0
              }
            }
            codes.withBuffer(gather, gather, gather)
            initialized = rows.count
          }
        }
      },
      pickedCodes: { [self] pick, gathered in
        let identity = isEveryRow(pick.records)
        func gather<Code: FixedWidthInteger>(_ codes: UnsafeBufferPointer<Code>) {
          if identity {
            // (One unsigned comparison a row: a position outside the table reads code 0.)
            pick.forEachIndex { n, row in
              gathered[n] = UInt(bitPattern: row) < UInt(codes.count) ? UInt32(codes[row]) : 0
            }
            return
          }
          pick.forEachRow(identity: false) { n, row in
            gathered[n] = row >= 0 && row < codes.count ? UInt32(codes[row]) : 0
          }
        }
        codes.withBuffer(gather, gather, gather)
      }, firstRecords: dictionary.firstRows, values: dictionary.values)
  }

  /// For a top-level field: its values in given rows (null outside the table).
  private func fieldValues(_ field: FieldRef) -> (@Sendable ([Int]) -> [Value])? {
    guard field.isTopLevel, field.slot < columns.count else { return nil }
    let column = columns[field.slot]
    return { rows in rows.map { column.value(at: $0) } }
  }

  /// For a top-level field whose column is coded: how many of the rows at given positions
  /// hold each value (a row outside the table holds null).
  private func countCodes(_ field: FieldRef) -> (@Sendable ([Int], [Int]) -> ValueCounts)? {
    guard field.isTopLevel, field.slot < columns.count,
      case .coded(let codes, let dictionary) = columns[field.slot].storage
    else { return nil }
    return { rows, positions in
      var counts = [Int](repeating: 0, count: dictionary.values.count)
      func count<Code: FixedWidthInteger>(_ codes: UnsafeBufferPointer<Code>) {
        for position in positions where position >= 0 && position < rows.count {
          let row = rows[position]
          let code = row >= 0 && row < codes.count ? Int(codes[row]) : 0
          if code < counts.count { counts[code] += 1 }
        }
      }
      codes.withBuffer(count, count, count)
      var tally = ValueCounts()
      for (code, count) in counts.enumerated() where count > 0 {
        tally.addRecords(holding: dictionary.values[code], times: count)
      }
      return tally
    }
  }

  /// The reader of a column for a field of `type`: typed where the column's form allows.
  private static func reader(_ column: Column, type: ValueType) -> FieldReader<Int> {
    switch (type, column.storage) {
    case (.int, .int(let values, let nulls)):
      return .int { row in
        row >= 0 && row < values.count && !nulls.isNull(row) ? values[row] : nil
      }
    case (.double, .double(let values, let nulls)):
      return .double { row in
        row >= 0 && row < values.count && !nulls.isNull(row) ? values[row] : nil
      }
    case (.int, .coded(let codes, let dictionary)):
      return .int(coded(codes, dictionary) { if case .int(let int) = $0 { int } else { nil } })
    case (.string, .coded(let codes, let dictionary)):
      return .string(
        coded(codes, dictionary) { if case .string(let text) = $0 { text } else { nil } })
    case (.bool, .coded(let codes, let dictionary)):
      return .bool(coded(codes, dictionary) { if case .bool(let bool) = $0 { bool } else { nil } })
    default:
      return .value { row in column.value(at: row) }
    }
  }

  /// A reader of a coded column: each distinct value decoded once, then looked up by code.
  private static func coded<T: Sendable>(
    _ codes: Codes, _ dictionary: Column.Dictionary, _ decode: (Value) -> T?
  ) -> @Sendable (Int) -> T? {
    let decoded = dictionary.values.map(decode)
    // (A reader for each width of the codes.)
    func reader<Code: FixedWidthInteger & Sendable>(_ codes: [Code]) -> @Sendable (Int) -> T? {
      { row in
        guard row >= 0, row < codes.count else { return nil }
        let code = Int(codes[row])
        return code < decoded.count ? decoded[code] : nil
      }
    }
    return codes.withArray(reader, reader, reader)
  }
}

extension RecordPick<Int> {
  /// Calls `body` with each pick's number from 0 and its index into the records, unchecked
  /// (the caller checks it): for records that are the table's rows, the index is the row.
  @inline(__always) func forEachIndex(_ body: (Int, Int) -> Void) {
    if let positions {
      positions.withUnsafeBufferPointer { positions in
        let end = Swift.max(0, Swift.min(count, positions.count - range.lowerBound))
        guard end > 0, let base = positions.baseAddress?.advanced(by: range.lowerBound) else {
          return
        }
        for n in 0..<end { body(n, base[n]) }
      }
    } else {
      for n in 0..<Swift.max(0, Swift.min(count, records.count - range.lowerBound)) {
        body(n, range.lowerBound &+ n)
      }
    }
  }

  /// Calls `body` with each pick's number from 0 and its row (-1 for a position outside the
  /// rows): a loop of its own for picked positions and for a range of the rows. With
  /// `identity` (the records are the table's ``ColumnTable/rows``: each position is its row),
  /// the rows are not read from the records: a range of them is a run of rows.
  @inline(__always) func forEachRow(identity: Bool, _ body: (Int, Int) -> Void) {
    records.withUnsafeBufferPointer { rows in
      if let positions {
        positions.withUnsafeBufferPointer { positions in
          let end = Swift.max(0, Swift.min(count, positions.count - range.lowerBound))
          if identity {
            for n in 0..<end {
              let index = positions[range.lowerBound + n]
              body(n, index >= 0 && index < rows.count ? index : -1)
            }
            return
          }
          for n in 0..<end {
            let index = positions[range.lowerBound + n]
            body(n, index >= 0 && index < rows.count ? rows[index] : -1)
          }
        }
      } else if identity {
        for n in 0..<Swift.max(0, Swift.min(count, rows.count - range.lowerBound)) {
          body(n, range.lowerBound + n)
        }
      } else {
        for n in 0..<Swift.max(0, Swift.min(count, rows.count - range.lowerBound)) {
          body(n, rows[range.lowerBound + n])
        }
      }
    }
  }
}

/// The room of ``ColumnTable/rowNumbers(_:)``, each half written by one thread.
private struct RowNumbers: @unchecked Sendable {
  let buffer: UnsafeMutableBufferPointer<Int>

  func write(_ rows: Range<Int>) {
    guard let base = buffer.baseAddress, rows.lowerBound >= 0, rows.upperBound <= buffer.count
    else { return }
    for row in rows { (base + row).initialize(to: row) }
  }
}
