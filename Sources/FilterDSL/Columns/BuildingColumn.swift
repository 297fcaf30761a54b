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
  private var dense: ColumnBuffer?

  mutating func put(_ value: Value, row: Int, _ forms: ColumnForms) {
    if dense != nil {
      dense?.pad(to: row)
      dense?.append(value)
      return
    }
    sparse.rows.append(row)
    sparse.values.append(value)
    if !forms.isSparse(sparse.values.count, in: row + 1) {
      dense = buffer(forms)
      sparse = Column.Sparse(rows: [], values: [], count: 0)
    }
  }

  mutating func set(_ row: Int, _ value: Value, _ forms: ColumnForms) {
    if let count = dense?.count {
      if row < count {
        dense?.set(row, value)
      } else if !value.isNull {
        dense?.pad(to: row)
        dense?.append(value)
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
    if var rows = part.dense {
      // (Taken out of `part`, so that its buffers are not copied when they are emptied.)
      part.dense = nil
      if dense != nil {
        dense?.pad(to: offset)
        dense?.append(rowsOf: &rows)
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
  func code(spelled spelling: UnsafeRawBufferPointer) -> UInt32? {
    dense?.code(spelled: spelling)
  }

  /// Whether the column keeps codes.
  var isCoded: Bool { dense?.isCoded ?? false }

  /// Puts row `row`'s code, one of ``code(spelled:)``'s answers.
  mutating func put(code: UInt32, row: Int) {
    dense?.pad(to: row)
    dense?.append(code: code)
  }

  /// Notes that the value put last was spelled `spelling`.
  mutating func noteSpelling(_ spelling: UnsafeRawBufferPointer) {
    dense?.noteSpelling(spelling)
  }

  mutating func forgetSpellings() { dense?.forgetSpellings() }

  /// Removes every row (see ``ColumnBuilder/removeRows()``).
  mutating func removeRows() {
    dense?.removeRows()
    sparse = Column.Sparse(rows: [], values: [], count: 0)
  }

  /// The column of `rows` rows, read as a field of `type` (see ``ColumnBuilder/finish(_:)``);
  /// this one is left empty (its buffers are the column's, not copies).
  mutating func take(rows: Int, _ type: ValueType, _ forms: ColumnForms) -> Column.Storage {
    guard dense != nil || !forms.isSparse(sparse.values.count, in: rows) else {
      return .sparse(Column.Sparse(rows: sparse.rows, values: sparse.values, count: rows))
    }
    var column = dense ?? buffer(forms)
    dense = nil
    column.pad(to: rows)
    column.conform(to: type)
    return column.storage
  }

  /// Makes room for the rows `forms` expects, if a buffer is kept.
  mutating func reserve(_ forms: ColumnForms) {
    dense?.reserve(forms.expectedRows)
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
