/// One row on its way into a ``ColumnBuilder`` (see ``ColumnBuilder/append(_:spelledIn:)``),
/// by slot: a value, with the bytes it was decoded from, or the code its coded column already
/// has for the value so spelled. A reader fills the cells of a record while it reads it and
/// empties them if the record is not kept.
package struct RowCells: Sendable {
  /// In ``codes``: the cell holds a value, not a code.
  package static let noCode = UInt32.max
  private(set) var values: [Value] = []
  private(set) var codes: [UInt32] = []
  /// Where each value was spelled, in the text the row is read from (empty when not known).
  private(set) var spellings: [Range<Int>] = []
  /// The slots set since the cells were last emptied, each once, in the order first set: a
  /// row of a file whose records each bring new keys has thousands of slots and sets two, and
  /// appending or emptying it visits those two (visiting every slot made such a file
  /// quadratic to read).
  private(set) var touched: [Int] = []
  private var isTouched: [Bool] = []

  package init() {}

  /// Sets cell `slot` to `value`, decoded from `spelling`.
  package mutating func set(_ slot: Int, _ value: Value, spelled spelling: Range<Int>) {
    guard slot >= 0 else { return }
    touch(slot)
    (values[slot], codes[slot], spellings[slot]) = (value, RowCells.noCode, spelling)
  }

  /// Sets cell `slot` to the value whose code in its column is `code`.
  package mutating func set(_ slot: Int, code: UInt32) {
    guard slot >= 0 else { return }
    touch(slot)
    (values[slot], codes[slot], spellings[slot]) = (.null, code, 0..<0)
  }

  /// Empties every cell.
  package mutating func removeAll() {
    for slot in touched {
      (values[slot], codes[slot], spellings[slot]) = (.null, RowCells.noCode, 0..<0)
      isTouched[slot] = false
    }
    touched.removeAll(keepingCapacity: true)
  }

  private mutating func touch(_ slot: Int) {
    widen(to: slot + 1)
    guard !isTouched[slot] else { return }
    isTouched[slot] = true
    touched.append(slot)
  }

  private mutating func widen(to width: Int) {
    guard values.count < width else { return }
    let more = width - values.count
    values += repeatElement(.null, count: more)
    codes += repeatElement(RowCells.noCode, count: more)
    spellings += repeatElement(0..<0, count: more)
    isTouched += repeatElement(false, count: more)
  }
}
