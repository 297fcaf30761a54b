/// What decides a column's form while it is built.
struct ColumnForms: Sendable {
  /// How many distinct values a column codes, unless they are text or true-or-false values
  /// (always coded); past that, integers are kept flat and other values as values.
  let codedLimit: Int
  /// A column where fewer than this share of the rows have a value is sparse (see
  /// ``Column/Sparse``).
  let sparseShare: Double
  /// How many rows the table is expected to have (0: not known).
  var expectedRows = 0

  /// Whether `values` values in `rows` rows are few enough to keep sparse.
  func isSparse(_ values: Int, in rows: Int) -> Bool {
    Double(values) < Double(rows) * sparseShare
  }
}

/// One column being built. While few of its rows have a value, it keeps only those rows and
/// their values; once enough do, a ``ColumnBuffer`` in the form its values need. Either way
/// the rows with no value are added only when a later row has one (or at the end), so a
/// row costs nothing in the columns it has no value in.
struct BuildingColumn: Sendable {
  private var sparse = Column.Sparse(rows: [], values: [], count: 0)
  /// The buffer, once enough rows have a value (``isDense``). (Not an optional: reading a
  /// buffer through an optional copied it, retaining each of its arrays, on every call.)
  private var dense = ColumnBuffer(nulls: 0, codedLimit: 0)
  private var isDense = false

  mutating func put(_ value: Value, row: Int, _ forms: ColumnForms) {
    if isDense {
      if row < dense.count {
        // A code put in this row already (see ``put(spelled:row:)``): the value replaces it.
        dense.set(row, value)
        return
      }
      dense.pad(to: row)
      dense.append(value)
      return
    }
    if sparse.rows.last == row {
      // Put again in the same row (a cell listed twice): the value replaces it.
      sparse.values[sparse.values.count - 1] = value
      return
    }
    sparse.rows.append(row)
    sparse.values.append(value)
    if !forms.isSparse(sparse.values.count, in: row + 1) {
      (dense, isDense) = (buffer(forms), true)
      sparse = Column.Sparse(rows: [], values: [], count: 0)
    }
  }

  mutating func set(_ row: Int, _ value: Value, _ forms: ColumnForms) {
    if isDense {
      if row < dense.count {
        dense.set(row, value)
      } else if !value.isNull {
        dense.pad(to: row)
        dense.append(value)
      }
      return
    }
    let index = sparse.position(of: row)
    if index < sparse.rows.count, sparse.rows[index] == row {
      if value.isNull {
        sparse.rows.remove(at: index)
        sparse.values.remove(at: index)
      } else {
        sparse.values[index] = value
      }
    } else if !value.isNull {
      sparse.rows.insert(row, at: index)
      sparse.values.insert(value, at: index)
    }
  }

  /// Appends the rows of `part` (another builder's column), starting at row `offset`, and
  /// leaves it with none.
  mutating func append(rowsOf part: inout BuildingColumn, at offset: Int, _ forms: ColumnForms) {
    if part.isDense {
      // (Taken out of `part`, so that its buffers are not copied when they are emptied.)
      var rows = part.dense
      part.dense = ColumnBuffer(nulls: 0, codedLimit: 0)
      if isDense {
        dense.pad(to: offset)
        dense.append(rowsOf: &rows)
      } else {
        let values = Column(storage: rows.storage)
        for row in 0..<values.count {
          let value = values.value(at: row)
          if !value.isNull { put(value, row: offset + row, forms) }
        }
        rows.removeRows()
      }
      part.dense = rows
      return
    }
    for (row, value) in zip(part.sparse.rows, part.sparse.values) {
      put(value, row: offset + row, forms)
    }
    part.sparse = Column.Sparse(rows: [], values: [], count: 0)
  }

  /// The code of the value spelled `spelling` (see ``ColumnBuffer/code(spelled:)``).
  func code(spelled spelling: Spelling) -> UInt32? {
    isDense ? dense.code(spelled: spelling) : nil
  }

  /// The value a code of ``code(spelled:)`` stands for.
  func value(ofCode code: UInt32) -> Value {
    isDense ? dense.value(ofCode: code) : .null
  }

  /// How many distinct values the column codes (0 when it is not coded).
  var codedValues: Int { isDense ? dense.codedValues : 0 }

  /// Whether the column keeps codes.
  var isCoded: Bool { isDense && dense.isCoded }

  /// Puts in row `row` the value spelled `spelling`, by its code, if the column is dense,
  /// coded, and has seen it so spelled (see ``ColumnBuffer/put(spelled:row:)``).
  @inline(__always)
  mutating func put(spelled spelling: Spelling, row: Int) -> UInt32? {
    isDense ? dense.put(spelled: spelling, row: row) : nil
  }

  /// Puts in row `row` the number `value`, if the column is dense and keeps numbers of its
  /// kind (see ``ColumnBuffer/put(number:row:)``).
  @inline(__always)
  mutating func put(number value: Value, row: Int) -> Bool {
    isDense && dense.put(number: value, row: row)
  }

  /// Removes the rows from `row` on: codes put in a row whose record was not kept (see
  /// ``ColumnBuilder/dropRow()``).
  mutating func removeRows(from row: Int) {
    if isDense { dense.removeRows(from: row) }
  }

  /// Notes that the value put last was spelled `spelling`.
  mutating func noteSpelling(_ spelling: UnsafeRawBufferPointer) {
    if isDense { dense.noteSpelling(spelling) }
  }

  mutating func forgetSpellings() { if isDense { dense.forgetSpellings() } }

  /// Removes every row (see ``ColumnBuilder/removeRows()``).
  mutating func removeRows() {
    if isDense { dense.removeRows() }
    sparse = Column.Sparse(rows: [], values: [], count: 0)
  }

  /// The column of `rows` rows, read as a field of `type` (see ``ColumnBuilder/finish(_:)``);
  /// this one is left empty (its buffers are the column's, not copies).
  mutating func take(rows: Int, _ type: ValueType, _ forms: ColumnForms) -> Column.Storage {
    guard isDense || !forms.isSparse(sparse.values.count, in: rows) else {
      return .sparse(Column.Sparse(rows: sparse.rows, values: sparse.values, count: rows))
    }
    var column = isDense ? dense : buffer(forms)
    (dense, isDense) = (ColumnBuffer(nulls: 0, codedLimit: 0), false)
    column.pad(to: rows)
    column.conform(to: type)
    return column.storage
  }

  /// Makes room for the rows `forms` expects, if a buffer is kept.
  mutating func reserve(_ forms: ColumnForms) {
    if isDense { dense.reserve(forms.expectedRows) }
  }

  /// The sparse rows so far as a buffer.
  private func buffer(_ forms: ColumnForms) -> ColumnBuffer {
    var buffer = ColumnBuffer(nulls: 0, codedLimit: forms.codedLimit)
    buffer.reserve(forms.expectedRows)
    for (row, value) in zip(sparse.rows, sparse.values) {
      buffer.pad(to: row)
      buffer.append(value)
    }
    return buffer
  }
}
