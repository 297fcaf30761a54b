/// Builds a ``ColumnTable`` row by row. Each column takes the form its values need: text and
/// true-or-false values are coded; integers, dates, times, durations, lists and nested
/// records are coded while they have few distinct values (then integers are kept flat, the
/// others as values); decimals are flat (and integers become decimals when one arrives, if
/// every one is exact as a decimal); a mix of kinds is kept as values. Rows may be replaced later (a record read again after its schema grew).
public struct ColumnBuilder: Sendable {
  private var columns: [BuildingColumn] = []
  /// How many rows were appended.
  public private(set) var count = 0

  /// When columns are coded, and when sparse; how many rows to make room for.
  private(set) var forms: ColumnForms
  /// How many distinct values a column codes (see ``ColumnForms/codedLimit``).
  var codedLimit: Int { forms.codedLimit }

  /// An empty builder.
  public init() { self.init(codedLimit: 4096) }

  init(codedLimit: Int, sparseShare: Double = 1.0 / 16) {
    forms = ColumnForms(codedLimit: codedLimit, sparseShare: sparseShare)
  }

  /// Appends a row: its values by slot (a missing slot is null; slots beyond the columns so
  /// far add columns, null in the rows before). Only the columns the row has a value in are
  /// touched: a row costs its values, however many fields the table has.
  public mutating func append(_ values: [Value]) {
    addColumns(values.count)
    let (row, forms) = (count, forms)
    for slot in values.indices where !values[slot].isNull {
      columns[slot].put(values[slot], row: row, forms)
    }
    count += 1
  }

  /// Replaces row `row` (an appended one) with `values`.
  public mutating func replace(row: Int, with values: [Value]) {
    guard row >= 0, row < count else { return }
    addColumns(values.count)
    let forms = forms
    for slot in columns.indices {
      columns[slot].set(row, slot < values.count ? values[slot] : .null, forms)
    }
  }

  /// Makes room for about `rows` rows in every column that keeps a buffer (made or made
  /// later), so that they do not grow by doubling (each doubling leaves the old buffer behind
  /// in the allocator: tens of megabytes over a million rows). Room that is never written
  /// is never touched, and costs no memory.
  public mutating func reserve(rows: Int) {
    forms.expectedRows = Swift.max(0, rows)
    for slot in columns.indices { columns[slot].reserve(forms) }
  }

  private mutating func addColumns(_ total: Int) {
    if columns.count < total {
      columns += repeatElement(BuildingColumn(), count: total - columns.count)
    }
  }

  /// The table of the rows appended, read as `schema` says: a decimal field's integers
  /// become decimals (as the row readers see them), and a column whose values do not all
  /// have the field's type keeps them as values.
  ///
  /// The builder is used up: its buffers become the table's without a copy.
  public consuming func finish(_ schema: Schema) -> ColumnTable {
    addColumns(schema.fields.count)
    var columns: [Column] = []
    columns.reserveCapacity(schema.fields.count)
    for slot in schema.fields.indices {
      columns.append(
        Column(storage: self.columns[slot].take(rows: count, schema.fields[slot].type, forms)))
    }
    return ColumnTable(schema: schema, count: count, columns: columns)
  }
}

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
    if !forms.isSparse(sparse.values.count, in: row + 1) { dense = buffer(forms) }
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

/// One column being built: the buffer of its current form, which changes as values demand.
struct ColumnBuffer: Sendable {
  enum Kind: Sendable { case undecided, int, double, coded, values }
  private var kind = Kind.undecided
  private(set) var count = 0
  private var ints: [Int64] = []
  private var doubles: [Double] = []
  private var codes: [UInt32] = []
  private var values: [Value] = []
  private var nulls = NullMask()
  private var dictionary = Column.Dictionary()
  /// For a coded column: the code of each distinct value.
  private var codeOf: [Value: UInt32] = [:]
  /// The codes of the values, found faster (see ``CodeMemo``).
  private var memo = CodeMemo()
  /// Whether a row was replaced: a coded column finds its first rows again, and values kept
  /// since look for the form they need.
  private var replacedCodes = false

  /// How many distinct values the column codes (see ``ColumnBuilder/codedLimit``).
  private let codedLimit: Int
  /// How many rows to make room for, in the buffer of the column's form.
  private var reserved = 0

  /// A column of `count` nulls.
  init(nulls count: Int, codedLimit: Int) {
    self.count = count
    self.codedLimit = codedLimit
  }

  /// A column of `values`, each in the form it needs.
  init(_ values: [Value], codedLimit: Int) {
    self.codedLimit = codedLimit
    for value in values { append(value) }
  }

  /// The column built.
  var storage: Column.Storage {
    switch kind {
    case .undecided:
      var mask = NullMask()
      for row in 0..<count { mask.set(row, null: true) }
      return .int(Array(repeating: 0, count: count), mask)
    case .int: return .int(ints, nulls)
    case .double: return .double(doubles, nulls)
    case .coded:
      guard replacedCodes else { return .coded(codes, dictionary) }
      var found = dictionary
      found.firstRows = [Int](repeating: -1, count: found.firstRows.count)
      for (row, code) in codes.enumerated() where code != 0 && found.firstRows[Int(code)] < 0 {
        found.firstRows[Int(code)] = row
      }
      return .coded(codes, found)
    case .values: return .values(values)
    }
  }

  /// Makes room for `rows` rows in the buffer of the column's form (and of the form it
  /// takes later).
  mutating func reserve(_ rows: Int) {
    reserved = rows
    switch kind {
    case .undecided: break
    case .int: ints.reserveCapacity(rows)
    case .double: doubles.reserveCapacity(rows)
    case .coded: codes.reserveCapacity(rows)
    case .values: values.reserveCapacity(rows)
    }
  }

  /// Appends nulls up to row `row`.
  mutating func pad(to row: Int) {
    while count < row { append(.null) }
  }

  mutating func append(_ value: Value) {
    if kind == .undecided {
      if value.isNull {
        count += 1
        return
      }
      decide(for: value)
    }
    switch (kind, value) {
    case (.int, .int(let i)):
      ints.append(i)
    case (.int, .null):
      nulls.set(ints.count, null: true)
      ints.append(0)
    case (.double, .double(let d)):
      doubles.append(d)
    case (.double, .int(let i)) where Double(exactly: i) != nil:
      doubles.append(Double(i))
    case (.double, .null):
      nulls.set(doubles.count, null: true)
      doubles.append(0)
    case (.coded, _) where fitsCoded(value):
      codes.append(code(of: value, row: codes.count))
    case (.values, _):
      values.append(value)
    default:
      widen(for: value)
      append(value)
      return
    }
    count += 1
  }

  mutating func set(_ row: Int, _ value: Value) {
    guard row >= 0, row < count else { return }
    switch (kind, value) {
    case (.int, .int(let i)):
      ints[row] = i
      nulls.set(row, null: false)
    case (.int, .null):
      ints[row] = 0
      nulls.set(row, null: true)
    case (.double, .double(let d)):
      doubles[row] = d
      nulls.set(row, null: false)
    case (.double, .int(let i)) where Double(exactly: i) != nil:
      doubles[row] = Double(i)
      nulls.set(row, null: false)
    case (.double, .null):
      doubles[row] = 0
      nulls.set(row, null: true)
    case (.coded, _) where fitsCoded(value):
      codes[row] = code(of: value, row: row)
      // The row may have been the first of its old value: found again when finished.
      replacedCodes = true
    case (.values, _):
      values[row] = value
    default:
      // The values no longer fit this form: keep them as values (``conform(to:)`` finds the
      // form they need once, at the end).
      values = allValues
      values[row] = value
      kind = .values
      replacedCodes = true
      (ints, doubles, codes, nulls, dictionary, codeOf, memo) = (
        [], [], [], NullMask(), .init(), [:], CodeMemo()
      )
    }
  }

  /// Takes the form `type` reads best, where the values allow it.
  mutating func conform(to type: ValueType) {
    if kind == .values, replacedCodes {
      // (Values kept since a row was replaced may all have one type again.)
      let typed = ColumnBuffer(values, codedLimit: codedLimit)
      if typed.kind != .values { self = typed }
    }
    switch (type, kind) {
    case (.double, .int),
      (.double, .coded) where holdsIntegers:
      let all = allValues
      self = ColumnBuffer(nulls: 0, codedLimit: codedLimit)
      decide(for: .double(0))
      for value in all { append(value) }
    case (.int, .int), (.double, .double), (_, .values), (_, .undecided):
      break
    case (_, .coded) where codedFits(type):
      break
    default:
      values = allValues
      kind = .values
      (ints, doubles, codes, nulls, dictionary, codeOf, memo) = (
        [], [], [], NullMask(), .init(), [:], CodeMemo()
      )
    }
  }

  /// Whether a coded column's values (they all have one kind) are of `type`.
  private func codedFits(_ type: ValueType) -> Bool {
    guard kind == .coded, dictionary.values.count > 1 else { return false }
    switch (dictionary.values[1], type) {
    case (.int, .int), (.string, .string), (.bool, .bool), (.date, .date),
      (.dateTime, .dateTime), (.duration, .duration), (.list, .list), (.record, .record):
      return true
    default:
      return false
    }
  }

  /// Whether the column holds integers (and nulls), flat or coded.
  private var holdsIntegers: Bool { kind == .int || codedFits(.int) }

  private var allValues: [Value] {
    let column = Column(storage: storage)
    return (0..<count).map { column.value(at: $0) }
  }

  private mutating func decide(for value: Value) {
    let nullRows = count
    count = 0
    switch value {
    case .double: kind = .double
    case .string, .bool: kind = .coded
    case .int: kind = codedLimit > 0 ? .coded : .int
    case .null: kind = .values
    default: kind = codedLimit > 0 ? .coded : .values
    }
    reserve(reserved)
    for _ in 0..<nullRows { append(.null) }
  }

  /// Changes the form so that `value` fits: coded integers to flat ones past
  /// `codedLimit` distinct values, integers to decimals for a decimal (if every one is
  /// exact as a decimal), anything else to values.
  private mutating func widen(for value: Value) {
    let all = allValues
    let target: Kind
    switch value {
    case .int where holdsIntegers: target = .int
    case .double
    where holdsIntegers
      && all.allSatisfy({ if case .int(let i) = $0 { Double(exactly: i) != nil } else { true } }):
      target = .double
    default: target = .values
    }
    let reserved = reserved
    self = ColumnBuffer(nulls: 0, codedLimit: codedLimit)
    kind = target
    reserve(Swift.max(reserved, all.count))
    for value in all { append(value) }
  }

  private func fitsCoded(_ value: Value) -> Bool {
    if value.isNull { return true }
    // (A code is 32 bits: past that many distinct values, the column keeps values.)
    guard dictionary.values.count < Int(UInt32.max) else { return codeOf[value] != nil }
    // One kind of value per column. Text and true-or-false values are always coded; other
    // kinds while they have at most `codedLimit` distinct values.
    switch (value, dictionary.values.count > 1 ? dictionary.values[1] : value) {
    case (.string, .string), (.bool, .bool): return true
    case (.int, .int), (.date, .date), (.dateTime, .dateTime), (.duration, .duration),
      (.list, .list), (.record, .record):
      return dictionary.values.count <= codedLimit || codeOf[value] != nil
    default: return false
    }
  }

  private mutating func code(of value: Value, row: Int) -> UInt32 {
    if value.isNull { return 0 }
    let hash = CodeMemo.hash(value)
    if let hash, let code = memo.code(of: value, hash: hash, in: dictionary.values) {
      return code
    }
    if let code = codeOf[value] {
      if let hash { memo.note(hash: hash, code: code) }
      return code
    }
    let code = UInt32(truncatingIfNeeded: dictionary.values.count)
    codeOf[value] = code
    if let hash { memo.note(hash: hash, code: code) }
    dictionary.values.append(value)
    dictionary.firstRows.append(row)
    return code
  }
}
