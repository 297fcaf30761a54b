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
  /// Whether each column is one of the table's ``SQLTable/numbersOnly``.
  private let numbersOnly: [Bool]
  /// For each such column, how many of its values were not numbers (read as null), and the
  /// first of them.
  private(set) var notNumbers: [Int: (count: Int, example: SQLValue)] = [:]

  init(_ table: SQLTable, _ dialect: SQLDialect) {
    (self.table, self.dialect) = (table, dialect)
    numbersOnly = table.schema.fields.map { table.numbersOnly.contains($0.name) }
    decoders = table.schema.fields.map { field -> JSONValue.Decoder? in
      switch field.type {
      case .list, .record, .any: JSONValue.Decoder(field.type)
      default: nil
      }
    }
  }

  /// A row's cells as a record of the table's schema; nil when a cell does not hold a value of
  /// its field's type (``problem(_:_:)`` says which).
  mutating func decode(_ row: [SQLValue]) -> [Value]? {
    guard row.count == table.schema.fields.count else { return nil }
    var record: [Value] = []
    record.reserveCapacity(row.count)
    for slot in row.indices {
      guard let value = decode(row[slot], slot) else {
        // A value that is not a number, in a column read for its numbers: null, as filters
        // there read it, and counted.
        guard numbersOnly[slot] else { return nil }
        let seen = notNumbers[slot]
        notNumbers[slot] = ((seen?.count ?? 0) + 1, seen?.example ?? row[slot])
        record.append(.null)
        continue
      }
      record.append(value)
    }
    return record
  }

  /// What was read as null in columns read for their numbers: a line per column.
  var notNumbersSummary: [String] {
    notNumbers.sorted { $0.key < $1.key }.map { slot, seen in
      let field = table.schema.fields[slot]
      let one = seen.count == 1
      let kind =
        field.type == .int
        ? (one ? "is not an integer" : "are not integers")
        : (one ? "is not a number" : "are not numbers")
      return
        "warning: table \(table.name): \(seen.count) value\(one ? "" : "s") of column \(table.columns[slot]) (such as \(seen.example)) \(kind), and \(one ? "was" : "were") read as null, as filters there read \(one ? "it" : "them")\n"
    }
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
      if case .text(let text) = cell, field.type == .decimal, Double(text) != nil,
        !text.lowercased().contains("n")
      {
        return DatabaseError(
          "table \(table.name): column \(column) holds \(text.count > 24 ? text.prefix(12) + "… (\(text.count) characters)" : text), beyond the 38 digits of flt's decimals (in row \(number) of those the query returned)",
          help: "select it as a double in a view (CAST(\(column) AS double precision))")
      }
      return DatabaseError(
        "table \(table.name): column \(column) holds \(cell), not \(field.type) (in row \(number) of those the query returned)",
        help: "fix the value in the database, or declare the column as text")
    }
    return DatabaseError("row \(number) of table \(table.name) does not fit its schema")
  }
}
