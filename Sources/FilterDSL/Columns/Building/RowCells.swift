/// The values of one row on its way into a ``ColumnBuilder`` (see
/// ``ColumnBuilder/append(_:spelledIn:)``), by slot, with the bytes each was decoded from. A
/// reader fills the cells of a record while it reads it and empties them if the record is not
/// kept. (A value whose coded column has a code for its spelling goes to the column at once:
/// ``ColumnBuilder/put(spelled:slot:emptying:)``.)
///
/// The slots set are listed, and appending or emptying the row visits those only: most of a
/// record's values go to their columns by their codes, and a file whose records each bring
/// new keys has rows of thousands of slots that set two (visiting every slot made such a file
/// quadratic to read).
package struct RowCells: Sendable {
  private(set) var values: [Value] = []
  /// Where each value was spelled, in the text the row is read from (empty when not known).
  private(set) var spellings: [Range<Int>] = []
  /// The slots given a value since the cells were last emptied (a slot set, emptied and set
  /// again is listed twice: see ``clear(_:)``).
  private(set) var touched: [Int] = []

  package init() {}

  /// Whether no cell was set since the cells were last emptied.
  var isEmpty: Bool { touched.isEmpty }

  /// Sets cell `slot` to `value`, decoded from `spelling`.
  package mutating func set(_ slot: Int, _ value: Value, spelled spelling: Range<Int>) {
    guard slot >= 0 else { return }
    if slot >= values.count { widen(to: slot + 1) }
    // (A null adds nothing to a row: a slot is listed when first given a value.)
    if !value.isNull && values[slot].isNull { touched.append(slot) }
    (values[slot], spellings[slot]) = (value, value.isNull ? 0..<0 : spelling)
  }

  /// Empties cell `slot`, if set (its key came again, and this time its column took its
  /// code).
  @inline(__always)
  mutating func clear(_ slot: Int) {
    guard !touched.isEmpty, slot >= 0, slot < values.count, !values[slot].isNull else { return }
    // (The list keeps the slot; set again, it is listed twice, and its value put twice in
    // the row: the second replaces the first. Codes come only for dense columns, where a
    // value put again in a row replaces it.)
    (values[slot], spellings[slot]) = (.null, 0..<0)
  }

  /// Empties every cell.
  package mutating func removeAll() {
    guard !touched.isEmpty else { return }
    for slot in touched { (values[slot], spellings[slot]) = (.null, 0..<0) }
    touched.removeAll(keepingCapacity: true)
  }

  private mutating func widen(to width: Int) {
    guard values.count < width else { return }
    let more = width - values.count
    values += repeatElement(.null, count: more)
    spellings += repeatElement(0..<0, count: more)
  }
}
