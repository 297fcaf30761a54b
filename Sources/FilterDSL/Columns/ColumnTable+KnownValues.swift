extension ColumnTable {
  /// Whether a text field of `distinct` values over `rows` rows, every row seen, is a set of
  /// known values: at most `limit` values, each standing for three rows or more on average;
  /// or any values of a small table (at most `limit` rows), whose every value is then known
  /// (a two-record file's `model == "iphone 14"` gets its "did you mean").
  package static func knowsValues(distinct: Int, rows: Int, limit: Int) -> Bool {
    distinct > 0 && distinct <= limit && (rows >= 3 * distinct || rows <= limit)
  }

  /// This table with its text fields of few distinct values marked as sets of known values
  /// (``Schema/Field/knownValues``), as the values of every row are: a filter comparing one
  /// with a value no row has then gets a warning and a "did you mean". For a table that holds
  /// the whole of its data (a file loaded whole): data read in part must not say a value is
  /// unknown. The rule is inference's (``knowsValues(distinct:rows:limit:)``).
  package func knowingValues(limit: Int) -> ColumnTable {
    var fields = schema.fields
    var changed = false
    for slot in fields.indices where fields[slot].type == .string {
      guard case .coded(let codes, let dictionary) = columns[slot].storage,
        dictionary.values.count - 1 <= 4 * limit
      else { continue }
      // The dictionary may keep values of rows read again after the schema widened: count
      // the codes the rows hold.
      var used = [Int](repeating: 0, count: dictionary.values.count)
      func tally<Code: FixedWidthInteger>(_ codes: UnsafeBufferPointer<Code>) {
        for code in codes where Int(code) < used.count { used[Int(code)] += 1 }
      }
      codes.withBuffer(tally, tally, tally)
      var values: [String] = []
      var rows = 0
      for code in used.indices.dropFirst() where used[code] > 0 {
        guard case .string(let text) = dictionary.values[code] else { continue }
        values.append(text)
        rows += used[code]
      }
      guard ColumnTable.knowsValues(distinct: values.count, rows: rows, limit: limit) else {
        continue
      }
      let known = values.sorted()
      if fields[slot].knownValues != known {
        fields[slot].knownValues = known
        changed = true
      }
    }
    return changed
      ? ColumnTable(
        schema: Schema(fields), count: count, columns: columns, presence: presence, zones: zones,
        rows: rows)
      : self
  }
}
