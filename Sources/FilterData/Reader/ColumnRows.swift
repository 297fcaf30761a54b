import FilterDSL

/// Records read straight into columns, as loads read them, rather than as ``DataRecord``s:
/// their values in a ``ColumnBuilder`` of their own, and where each one's text is in the
/// reader's buffer. A reader reading a buffer in two parts at once fills one for each part;
/// the caller joins their rows to its own builder (``ColumnBuilder/append(rowsOf:)``), and the
/// emptied rows are filled again with the next block, keeping what they learned of the values.
struct ColumnRows: Sendable {
  var builder = ColumnBuilder()
  /// Where each record's text is in the reader's buffer.
  var texts: [Range<Int>] = []

  /// How many records.
  var count: Int { texts.count }

  /// The cells of the record being read.
  var cells = RowCells()

  /// The rows (ascending) whose JSON object has a key with a null value (or text read as
  /// null), for `exists` (see `FieldPresence`): top-level fields by slot, nested ones by
  /// path.
  private(set) var nullRows: [[Int]] = []
  private(set) var nestedNullRows: [[String]: [Int]] = [:]
  /// The same for the record being read: its top-level slots, and its nested paths.
  var nullSlots: [Int] = []
  var nullPaths: [[String]] = []

  // The builder's lookups, as mutating calls: a closure that captures the rows calls them in
  // place, where reading `rows.builder` there copied the builder (a retain and a release of
  // its every array, each cell: a quarter of a load's time).

  /// ``ColumnBuilder/remembersSpellings(slot:)``.
  mutating func remembersSpellings(slot: Int) -> Bool {
    builder.remembersSpellings(slot: slot)
  }

  /// Sets cell `slot` of the record being read to `value`, decoded from `spelling` (see
  /// ``RowCells/set(_:_:spelled:)``). A null takes back a code put before for the same key.
  mutating func set(_ slot: Int, _ value: Value, spelled spelling: Range<Int>) {
    if value.isNull { builder.dropCode(slot: slot) }
    cells.set(slot, value, spelled: spelling)
  }

  /// Puts the value spelled `spelling` in column `slot` of the record being read, by its
  /// code, if its column knows the spelling (see ``ColumnBuilder/put(spelled:slot:emptying:)``), its
  /// cell emptied (set if the key came before); returns the code, or nil.
  mutating func put(spelled spelling: Spelling, slot: Int) -> UInt32? {
    builder.put(spelled: spelling, slot: slot, emptying: &cells)
  }

  /// Puts the number `value` in column `slot` of the record being read, if the column keeps
  /// such numbers (see ``ColumnBuilder/put(number:slot:emptying:)``); returns whether it did.
  mutating func put(number value: Value, slot: Int) -> Bool {
    builder.put(number: value, slot: slot, emptying: &cells)
  }

  /// ``ColumnBuilder/value(ofCode:slot:)``.
  mutating func value(ofCode code: UInt32, slot: Int) -> Value {
    builder.value(ofCode: code, slot: slot)
  }

  /// Reads the JSON record at `scanner`'s cursor (see ``JSONScanner/record(_:into:)``);
  /// ``keep(text:in:)`` then adds it, or ``drop()`` forgets it.
  mutating func read(_ scanner: inout JSONScanner, _ layout: RecordLayout) throws(DataProblem) {
    nullSlots.removeAll(keepingCapacity: true)
    nullPaths.removeAll(keepingCapacity: true)
    try scanner.record(layout, into: &self)
  }

  /// Adds the record read last, whose text is `bytes[text]`.
  mutating func keep(text: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) {
    let row = texts.count
    for slot in nullSlots {
      if slot >= nullRows.count { nullRows += repeatElement([], count: slot + 1 - nullRows.count) }
      if nullRows[slot].last != row { nullRows[slot].append(row) }
    }
    for path in nullPaths where nestedNullRows[path]?.last != row {
      nestedNullRows[path, default: []].append(row)
    }
    builder.append(&cells, spelledIn: UnsafeRawBufferPointer(bytes))
    texts.append(text)
  }

  /// Forgets the record read last.
  mutating func drop() {
    cells.removeAll()
    builder.dropRow()
  }

  /// The rows with a key present with a null value, by the path's names (top-level fields by
  /// their names in `schema`).
  func presentNulls(_ schema: Schema) -> [[String]: [Int]] {
    var paths = nestedNullRows
    for (slot, rows) in nullRows.enumerated() where !rows.isEmpty && slot < schema.fields.count {
      paths[[schema.fields[slot].name]] = rows
    }
    return paths
  }

  /// Removes every record (see ``ColumnBuilder/removeRows()``).
  mutating func removeAll() {
    builder.removeRows()
    texts.removeAll(keepingCapacity: true)
    nullRows.removeAll(keepingCapacity: true)
    nestedNullRows.removeAll()
  }
}
