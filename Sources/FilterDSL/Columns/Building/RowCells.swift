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
  /// Whether the row is wide (more than ``wide`` slots): then the slots set are listed, and
  /// appending or emptying the row visits those only. A row of a file whose records each
  /// bring new keys has thousands of slots and sets two (visiting every slot made such a
  /// file quadratic to read); a narrow row visits its few slots, which costs less than
  /// listing them.
  var isWide: Bool { touched != nil }
  /// When wide, the slots given a value or a code since the cells were last emptied, each
  /// once; nil while narrow (cells are copied as rows are read, and nil adds nothing to a
  /// copy).
  private(set) var touched: [Int]? = nil
  /// How many slots a row may have and not list the ones set.
  static let wide = 64

  package init() {}

  /// Sets cell `slot` to `value`, decoded from `spelling`.
  package mutating func set(_ slot: Int, _ value: Value, spelled spelling: Range<Int>) {
    guard slot >= 0 else { return }
    touch(slot, listing: !value.isNull)
    (values[slot], codes[slot], spellings[slot]) = (value, RowCells.noCode, spelling)
  }

  /// Sets cell `slot` to the value whose code in its column is `code`.
  package mutating func set(_ slot: Int, code: UInt32) {
    guard slot >= 0 else { return }
    touch(slot, listing: true)
    (values[slot], codes[slot], spellings[slot]) = (.null, code, 0..<0)
  }

  /// Empties every cell.
  package mutating func removeAll() {
    if var listed = touched {
      touched = nil  // (so that the list is not copied as it is emptied)
      for slot in listed {
        (values[slot], codes[slot], spellings[slot]) = (.null, RowCells.noCode, 0..<0)
      }
      listed.removeAll(keepingCapacity: true)
      touched = listed
      return
    }
    for slot in values.indices
    where codes[slot] != RowCells.noCode || !values[slot].isNull || !spellings[slot].isEmpty {
      (values[slot], codes[slot], spellings[slot]) = (.null, RowCells.noCode, 0..<0)
    }
  }

  /// Makes room for `slot`; in a wide row, lists it when it is first given something
  /// (`listing`: a value or a code; a null adds nothing to a row, so each slot is listed once).
  private mutating func touch(_ slot: Int, listing: Bool) {
    if slot >= values.count { widen(to: slot + 1) }
    if touched != nil, listing, codes[slot] == RowCells.noCode, values[slot].isNull {
      touched?.append(slot)
    }
  }

  private mutating func widen(to width: Int) {
    guard values.count < width else { return }
    let more = width - values.count
    values += repeatElement(.null, count: more)
    codes += repeatElement(RowCells.noCode, count: more)
    spellings += repeatElement(0..<0, count: more)
    if !isWide && values.count > RowCells.wide {
      // From now on the slots set are listed: those set so far first.
      touched = values.indices.filter { codes[$0] != RowCells.noCode || !values[$0].isNull }
    }
  }
}
