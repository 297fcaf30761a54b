/// Columns from an embedder's own arrays (a struct of arrays), for
/// ``ColumnTable/init(schema:columns:)``. Integer and decimal arrays are shared, not copied
/// (Swift arrays copy only when one side writes).
extension Column {
  /// Integers; `nulls[row]` true where a row has no value (none when nil).
  public static func ints(_ values: [Int64], nulls: [Bool]? = nil) -> Column {
    Column(storage: .int(values, NullMask(nulls)))
  }

  /// Decimals; `nulls[row]` true where a row has no value (none when nil).
  public static func doubles(_ values: [Double], nulls: [Bool]? = nil) -> Column {
    Column(storage: .double(values, NullMask(nulls)))
  }

  /// Values already coded: row `row` holds `values[codes[row]]`. Nil when a code is not an
  /// index of `values`. Tests on the column then run once per distinct value. (The column
  /// keeps its codes as narrow as `values` allows: a byte each for at most 256 values.)
  public static func coded(_ codes: [UInt32], values: [Value]) -> Column? {
    var firstRows = [Int](repeating: -1, count: values.count)
    for (row, code) in codes.enumerated() {
      let code = Int(code)
      guard code < values.count else { return nil }
      if firstRows[code] < 0 { firstRows[code] = row }
    }
    return Column(storage: .coded(Codes(codes), Dictionary(values: values, firstRows: firstRows)))
  }

  /// Any values, each kept as it is (coded when few are distinct, as ``ColumnBuilder`` does).
  public static func values(_ values: [Value]) -> Column {
    Column(storage: ColumnBuffer(values, codedLimit: ColumnBuilder().codedLimit).storage)
  }

  /// Whether every value of the column is of `type` (or null): what a field of `type` may read.
  func holds(_ type: ValueType) -> Bool {
    switch (storage, type) {
    case (.int, .int), (.double, .double), (.int, .any), (.double, .any): return true
    // (A column of nulls alone may be held as numbers: it fits every type.)
    case (.int(let values, let nulls), _): return values.indices.allSatisfy(nulls.isNull)
    case (.double(let values, let nulls), _): return values.indices.allSatisfy(nulls.isNull)
    case (.coded(_, let dictionary), _): return dictionary.values.allSatisfy { $0.fits(type) }
    case (.values(let values), _): return values.allSatisfy { $0.fits(type) }
    case (.sparse(let sparse), _): return sparse.values.allSatisfy { $0.fits(type) }
    }
  }
}

extension ColumnTable {
  /// A table of `columns`, one per field of `schema`, in order, of one length (the
  /// embedder's own arrays, shared). Nil when the numbers of columns and fields differ, the
  /// lengths differ, or a column holds values its field's type does not (a decimal field may
  /// hold integers).
  public convenience init?(schema: Schema, columns: [Column]) {
    self.init(schema: schema, columns: columns, sortZones: true)
  }

  /// ``init(schema:columns:)``, with the columns' ``SortZones`` only when `sortZones` (not
  /// for a table filtered once, as a row group of a Parquet file is).
  package convenience init?(schema: Schema, columns: [Column], sortZones: Bool) {
    let count = columns.first?.count ?? 0
    guard columns.count == schema.fields.count,
      columns.allSatisfy({ $0.count == count }),
      zip(columns, schema.fields).allSatisfy({ column, field in
        column.holds(field.type) || (field.type == .double && column.holds(.int))
      })
    else { return nil }
    let zones = sortZones && count >= SortZones.leastRows ? SortZones.of(columns) : []
    self.init(schema: schema, count: count, columns: columns, zones: zones)
  }
}

extension Value {
  /// Whether this value is of `type`: null fits every type, and every value mixed values; an
  /// integer fits a double and an exact decimal; a list's elements and a record's fields fit
  /// theirs.
  func fits(_ type: ValueType) -> Bool {
    switch (self, type) {
    case (.null, _), (_, .any), (.bool, .bool), (.int, .int), (.int, .double), (.double, .double),
      (.int, .decimal), (.decimal, .decimal), (.string, .string), (.date, .date),
      (.dateTime, .dateTime), (.time, .time), (.duration, .duration):
      return true
    case (.list(let items), .list(let element)):
      return items.allSatisfy { $0.fits(element) }
    case (.record(let values), .record(let schema)):
      return values.count <= schema.fields.count
        && zip(values, schema.fields).allSatisfy { $0.fits($1.type) }
    default:
      return false
    }
  }
}
