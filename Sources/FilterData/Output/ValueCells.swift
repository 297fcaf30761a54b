import FilterDSL

/// How output reads the cells of records that were made from values (a Parquet file's rows, a
/// table's) straight from a batch's columns: each output column resolved once, per schema, to
/// the slots it reads, and each value made the cell its JSON text would have given (the same
/// text, nullness and alignment), without a record's JSON text made and scanned again.
struct ValueCells {
  /// One output column: the top-level slot it starts at and the names below it, resolved to
  /// slots where the schema knows them (a field of mixed values is looked into by key).
  private struct Column {
    var slot: Int?
    var steps: [(name: String, slot: Int?)]
  }

  let schema: Schema
  private let columns: [Column]

  /// The cells of `columns` (output's names: a top-level field's, or a dotted path into
  /// nested records) in records of `schema`.
  init(schema: Schema, columns: [String]) {
    self.schema = schema
    self.columns = columns.map { Self.resolve($0, in: schema) }
  }

  /// A name as output reads it (``RecordWriter/cell(_:in:)``): a top-level field of that
  /// name, else its dotted parts, one level each.
  private static func resolve(_ name: String, in schema: Schema) -> Column {
    if let slot = schema.fields.lastIndex(where: { $0.name == name }) {
      return Column(slot: slot, steps: [])
    }
    let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard let first = parts.first, let slot = schema.fields.lastIndex(where: { $0.name == first })
    else { return Column(slot: nil, steps: []) }
    var type = schema.fields[slot].type
    var steps: [(name: String, slot: Int?)] = []
    for part in parts.dropFirst() {
      if case .record(let inner) = type,
        let index = inner.fields.lastIndex(where: { $0.name == part })
      {
        steps.append((part, index))
        type = inner.fields[index].type
      } else {
        steps.append((part, nil))
        type = .any
      }
    }
    return Column(slot: slot, steps: steps)
  }

  /// The cells of row `row` of `table` (of ``schema``), one per column.
  func cells(_ table: ColumnTable, row: Int) -> [OutputCell] {
    columns.map { cell($0, table, row) }
  }

  /// The cells of the rows of `table` (of ``schema``), `rows` of them to be read: a top-level
  /// coded column's distinct values (text, dates, flags) made cells once, not once a row,
  /// when they are not many more than the rows.
  func cells(of table: ColumnTable, rows: Int) -> BatchCells {
    let distinct = columns.map { column -> [OutputCell]? in
      guard let slot = column.slot, column.steps.isEmpty, slot < table.columns.count,
        let values = table.columns[slot].distinctValues, values.count <= 2 * rows + 16
      else { return nil }
      let type = schema.fields[slot].type
      return values.map { Self.cell($0, type) }
    }
    return BatchCells(reader: self, table: table, distinct: distinct)
  }

  /// The cells of one batch's rows (``cells(of:rows:)``).
  struct BatchCells {
    let reader: ValueCells
    let table: ColumnTable
    /// By output column: the cell of each code, for a coded column; nil for the others.
    let distinct: [[OutputCell]?]

    /// The cells of row `row`, one per column.
    func cells(row: Int) -> [OutputCell] {
      zip(reader.columns, distinct).map { column, distinct in
        guard let distinct, let slot = column.slot else {
          return reader.cell(column, table, row)
        }
        let code = table.columns[slot].code(at: row)
        return code < distinct.count ? distinct[code] : .null
      }
    }
  }

  private func cell(_ column: Column, _ table: ColumnTable, _ row: Int) -> OutputCell {
    guard let slot = column.slot, slot < table.columns.count else { return .null }
    var value = table.columns[slot].value(at: row)
    var type = schema.fields[slot].type
    for step in column.steps {
      switch (value, type) {
      case (.record(let items), .record(let inner)):
        guard let index = step.slot, index < items.count, index < inner.fields.count else {
          return .null
        }
        (value, type) = (items[index], inner.fields[index].type)
      case (.object(let object), _):
        guard let index = object.keys.lastIndex(of: step.name) else { return .null }
        (value, type) = (object.values[index], .any)
      default:
        return .null
      }
    }
    return Self.cell(value, type)
  }

  /// `value` (of `type`) as the cell its JSON text (``DataRecord/appendValue(_:_:to:)``)
  /// would give: text as text, numbers and booleans as literals (NaN, which JSON writes as
  /// null, as null), dates and times as their text, lists and records as JSON.
  static func cell(_ value: Value, _ type: ValueType) -> OutputCell {
    switch value {
    case .null: return .null
    case .string(let text): return .text(text, literal: false)
    case .int(let i): return .text(String(i), literal: true)
    case .bool(let b): return .text(b ? "true" : "false", literal: true)
    case .decimal(let d): return .text(d.description, literal: true)
    case .double(let d):
      guard !d.isNaN else { return .null }
      return .text(d.isFinite ? String(d) : d < 0 ? "-1e999" : "1e999", literal: true)
    case .date(let d): return .text(d.description, literal: false)
    case .dateTime(let t): return .text(t.description, literal: false)
    case .time(let t): return .text(t.description, literal: false)
    case .duration(let span): return .text(span.description, literal: false)
    case .list, .record, .object:
      var text: [UInt8] = []
      DataRecord.appendValue(value, type, to: &text)
      return .json(text[...])
    }
  }
}
