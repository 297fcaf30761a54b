import FilterDSL
import FilterData
import FilterSQL

/// Reads a table's rows as records of its schema: each cell as its field's type, lists and
/// records from their JSON text.
struct RowDecoder {
  let table: SQLTable
  let dialect: SQLDialect
  /// For each column of lists or records, the decoder of its JSON.
  private let decoders: [JSONValue.Decoder?]

  init(_ table: SQLTable, _ dialect: SQLDialect) {
    (self.table, self.dialect) = (table, dialect)
    decoders = table.schema.fields.map { field -> JSONValue.Decoder? in
      switch field.type {
      case .list, .record: JSONValue.Decoder(field.type)
      default: nil
      }
    }
  }

  /// A row's cells as a record of the table's schema; nil when a cell does not hold a value of
  /// its field's type (``problem(_:_:)`` says which).
  func decode(_ row: [SQLValue]) -> [Value]? {
    guard row.count == table.schema.fields.count else { return nil }
    var record: [Value] = []
    record.reserveCapacity(row.count)
    for slot in row.indices {
      guard let value = decode(row[slot], slot) else { return nil }
      record.append(value)
    }
    return record
  }

  private func decode(_ cell: SQLValue, _ slot: Int) -> Value? {
    if case .text(let json) = cell, let decoder = decoders[slot] { return decoder.decode(json) }
    return dialect.decode(cell, as: table.schema.fields[slot].type)
  }

  /// Why row `number` (from 1, of those the query returned) did not decode.
  func problem(_ row: [SQLValue], _ number: Int) -> DatabaseError {
    guard row.count == table.schema.fields.count else {
      return DatabaseError(
        "table \(table.name) returned \(row.count) columns, not the schema's \(table.schema.fields.count)"
      )
    }
    for (slot, (column, field)) in zip(table.columns, table.schema.fields).enumerated()
    where decode(row[slot], slot) == nil {
      let cell = row[slot]
      if case .text(let text) = cell, field.type == .double, Double(text)?.isInfinite == true {
        return DatabaseError(
          "table \(table.name): column \(column) holds \(text.count > 24 ? text.prefix(12) + "… (\(text.count) characters)" : text), beyond the range of flt's numbers (about ±1.8e308) (in row \(number) of those the query returned)",
          help: "select it as text in a view (CAST(\(column) AS text)), or scale it down")
      }
      return DatabaseError(
        "table \(table.name): column \(column) holds \(cell), not \(field.type) (in row \(number) of those the query returned)",
        help: "fix the value in the database, or declare the column as text")
    }
    return DatabaseError("row \(number) of table \(table.name) does not fit its schema")
  }
}
