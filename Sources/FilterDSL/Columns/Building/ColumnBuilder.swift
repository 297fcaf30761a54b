import Dispatch

/// Builds a ``ColumnTable`` row by row. Each column takes the form its values need: text and
/// true-or-false values are coded; integers, dates, times, durations, lists and nested
/// records are coded while they have few distinct values (then integers are kept flat, the
/// others as values); decimals are flat (and integers become decimals when one arrives, if
/// every one is exact as a decimal); a mix of kinds is kept as values. Rows may be replaced
/// later (a record read again after its schema grew).
///
/// Rows built apart, on another thread say, join a builder with ``append(rowsOf:)``.
public struct ColumnBuilder: Sendable {
  private var columns: [BuildingColumn] = []
  /// The columns given a row since the rows were last removed, each once: joining this
  /// builder's rows to another's, and removing them, visit these only (a file whose records
  /// each bring new keys has thousands of columns, and a part of it rows in a few).
  /// Nil while the builder has few columns: a builder is copied to read from it (once a
  /// field, as rows are read), and a nil here adds nothing to a copy.
  private var wide: WideColumns? = nil

  /// The columns given rows, listed once the builder has many.
  private struct WideColumns: Sendable {
    var touched: [Int]
    var isTouched: [Bool]
  }

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
      touch(slot)
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
      touch(slot)
      columns[slot].set(row, slot < values.count ? values[slot] : .null, forms)
    }
  }

  /// Appends the rows of `part` after these, in order, leaving `part` with none. `part`
  /// keeps what it learned of its values (the codes of a coded column, and which of this
  /// builder's codes they are), so that its next rows join faster: a coded column's rows join
  /// as codes, looked up once per distinct value; integers and decimals as whole buffers.
  /// Any builder's rows may join any other's; the table is the same as if every row had been
  /// appended here.
  public mutating func append(rowsOf part: inout ColumnBuilder) {
    addColumns(part.columns.count)
    let (forms, offset) = (forms, count)
    // A wide part's other columns have no rows: nothing to join, nothing to empty.
    let slots = part.columnsWithRows
    for slot in slots { touch(slot) }
    if part.count >= ColumnBuilder.joinedOnCores, slots.count >= 2 {
      // Each column joins on its own (they share nothing), the columns shared out between
      // two cores: a load joins each block's rows while no other work is ready.
      columns.withUnsafeMutableBufferPointer { columns in
        part.columns.withUnsafeMutableBufferPointer { parts in
          let joins = ColumnJoins(columns: columns, parts: parts, slots: slots)
          DispatchQueue.concurrentPerform(iterations: 2) { half in
            for index in stride(from: half, to: slots.count, by: 2) {
              joins.join(slots[index], at: offset, forms)
            }
          }
        }
      }
    } else {
      for slot in slots {
        columns[slot].append(rowsOf: &part.columns[slot], at: offset, forms)
      }
    }
    part.forgetRows()
    count += part.count
    part.count = 0
  }

  /// How many columns a builder may have and not list the ones given rows.
  static let wide = 64

  /// How many rows a part has at least for its columns to join on two cores.
  static let joinedOnCores = 2_048

  /// Appends a row of `cells` (and of the codes put in it, see ``put(spelled:slot:emptying:)``), and
  /// empties them for the next. Values decoded from a spelling (the bytes of `text` they came
  /// from) are remembered by it in coded columns, for ``code(spelled:slot:)`` to find.
  package mutating func append(_ cells: inout RowCells, spelledIn text: UnsafeRawBufferPointer) {
    if !cells.isEmpty {
      addColumns(cells.values.count)
      // Only the cells set are visited: the others are null, which a column needs no row for.
      for slot in cells.touched { put(cells, slot, text) }
      cells.removeAll()
    }
    count += 1
  }

  /// Puts cell `slot` of `cells` in its column, in the row being appended.
  @inline(__always)
  private mutating func put(
    _ cells: borrowing RowCells, _ slot: Int, _ text: UnsafeRawBufferPointer
  ) {
    guard !cells.values[slot].isNull else { return }
    touch(slot)
    columns[slot].put(cells.values[slot], row: count, forms)
    let spelled = cells.spellings[slot]
    if !spelled.isEmpty, spelled.upperBound <= text.count {
      columns[slot].noteSpelling(UnsafeRawBufferPointer(rebasing: text[spelled]))
    }
  }

  /// Puts the value spelled `spelling` in column `slot`, in the row being read (row
  /// ``count``, which ``append(_:spelledIn:)`` ends), by its code, if the column is coded and
  /// a value so spelled was appended to it before: straight into the column, with no cell
  /// between. Returns the code, or nil (and changes nothing). A code or value put again in the
  /// same row replaces it (a key given twice keeps its last value: the slot's cell in
  /// `cells`, the row's values so far, is emptied); ``dropRow()`` takes the row's codes back.
  package mutating func put(
    spelled spelling: Spelling, slot: Int, emptying cells: inout RowCells
  ) -> UInt32? {
    guard slot >= 0, slot < columns.count,
      let code = columns[slot].put(spelled: spelling, row: count)
    else { return nil }
    touch(slot)
    cells.clear(slot)
    return code
  }

  /// Puts the number `value` in column `slot`, in the row being read, straight into the
  /// column, if it keeps numbers of that kind (integers, decimals): a column of many distinct
  /// numbers, which codes none, takes each with no cell between (a cell a row, set, put and
  /// emptied, took a sixth of a load's time for one such column of ten). Returns whether it
  /// did; as ``put(spelled:slot:emptying:)`` otherwise.
  package mutating func put(number value: Value, slot: Int, emptying cells: inout RowCells) -> Bool
  {
    guard slot >= 0, slot < columns.count, columns[slot].put(number: value, row: count) else {
      return false
    }
    touch(slot)
    cells.clear(slot)
    return true
  }

  /// Takes back the codes and numbers put in the row being read (its record is not kept).
  package mutating func dropRow() {
    let row = count
    for slot in columnsWithRows { columns[slot].removeRows(from: row) }
  }

  /// Takes back the code or number put in column `slot` in the row being read, if any (its
  /// key came again, with null).
  package mutating func dropCode(slot: Int) {
    guard slot >= 0, slot < columns.count else { return }
    columns[slot].removeRows(from: count)
  }

  /// The code of the value spelled `spelling` in column `slot`, if the column is coded and
  /// a value so spelled was appended to it before (see ``append(_:spelledIn:)``).
  package func code(spelled spelling: Spelling, slot: Int) -> UInt32? {
    slot >= 0 && slot < columns.count ? columns[slot].code(spelled: spelling) : nil
  }

  /// The value a code of ``code(spelled:slot:)`` stands for in column `slot`.
  package func value(ofCode code: UInt32, slot: Int) -> Value {
    slot >= 0 && slot < columns.count ? columns[slot].value(ofCode: code) : .null
  }

  /// Whether column `slot` is coded, so that ``code(spelled:slot:)`` may find codes in it.
  package func remembersSpellings(slot: Int) -> Bool {
    slot >= 0 && slot < columns.count && columns[slot].isCoded
  }

  /// Forgets the spellings of values: the reader now decodes them otherwise (its schema grew).
  package mutating func forgetSpellings() {
    for slot in columns.indices { columns[slot].forgetSpellings() }
  }

  /// How many distinct values the coded columns hold, all told: what a builder that is
  /// emptied and filled again, block after block, has learned (and keeps in memory).
  package var codedValues: Int { columns.reduce(0) { $0 + $1.codedValues } }

  /// Removes every row, keeping what was learned of the values (see ``append(rowsOf:)``).
  public mutating func removeRows() {
    for slot in columnsWithRows { columns[slot].removeRows() }
    forgetRows()
    count = 0
  }

  /// Empties the list of columns given rows (their rows were taken or removed).
  private mutating func forgetRows() {
    guard var listed = wide else { return }
    wide = nil  // (so that the arrays below are not copied as they change)
    for slot in listed.touched { listed.isTouched[slot] = false }
    listed.touched.removeAll(keepingCapacity: true)
    wide = listed
  }

  /// Makes room for about `rows` rows in every column that keeps a buffer (made or made
  /// later), so that they do not grow by doubling (each doubling leaves the old buffer behind
  /// in the allocator: tens of megabytes over a million rows). Room that is never written
  /// is never touched, and costs no memory.
  public mutating func reserve(rows: Int) {
    forms.expectedRows = Swift.max(0, rows)
    for slot in columns.indices { columns[slot].reserve(forms) }
  }

  /// The table of the rows appended so far, as ``finish(_:)`` makes it, leaving this builder
  /// as it is: the table shares its buffers, and the builder's next change copies or
  /// replaces them (``removeRows()`` replaces them, without copying the rows).
  public func table(_ schema: Schema) -> ColumnTable {
    let copy = self
    return copy.finish(schema)
  }

  private mutating func addColumns(_ total: Int) {
    guard columns.count < total else { return }
    columns += repeatElement(BuildingColumn(), count: total - columns.count)
    if let listed = wide?.isTouched.count {
      wide?.isTouched += repeatElement(false, count: total - listed)
    } else if columns.count > ColumnBuilder.wide {
      // From now on the columns given rows are listed: every one so far, as they may have.
      wide = WideColumns(
        touched: Array(columns.indices), isTouched: Array(repeating: true, count: columns.count))
    }
  }

  /// Notes that column `slot` (one that exists) was given a row: listed once the builder has
  /// many columns (with few, visiting each costs less than listing them).
  @inline(__always)
  private mutating func touch(_ slot: Int) {
    guard wide != nil, wide?.isTouched[slot] == false else { return }
    wide?.isTouched[slot] = true
    wide?.touched.append(slot)
  }

  /// The columns that may have rows: the listed ones of a wide builder, every one of another.
  private var columnsWithRows: [Int] { wide?.touched ?? Array(columns.indices) }

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

/// The columns of two builders, for joining each of a part's columns to the one of its slot
/// on two threads: each slot is joined by one thread only, and nothing else touches the
/// buffers until every join is done.
private struct ColumnJoins: @unchecked Sendable {
  let columns: UnsafeMutableBufferPointer<BuildingColumn>
  let parts: UnsafeMutableBufferPointer<BuildingColumn>
  let slots: [Int]

  func join(_ slot: Int, at offset: Int, _ forms: ColumnForms) {
    guard slot >= 0, slot < columns.count, slot < parts.count else { return }
    columns[slot].append(rowsOf: &parts[slot], at: offset, forms)
  }
}
