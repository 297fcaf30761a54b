/// The values of one row on its way into a ``ColumnBuilder`` (see
/// ``ColumnBuilder/append(_:spelledIn:)``), by slot, with the bytes each was decoded from. A
/// reader fills the cells of a record while it reads it and empties them if the record is not
/// kept. (A value whose coded column has a code for its spelling goes to the column at once:
/// ``ColumnBuilder/put(spelled:slot:)``.)
package struct RowCells: Sendable {
  private(set) var values: [Value] = []
  /// Whether no cell was set since the cells were last emptied (most records of a file are
  /// all taken by their codes: their rows then cost no visit of the cells).
  private(set) var isEmpty = true
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
    (values[slot], spellings[slot]) = (value, spelling)
    isEmpty = false
  }

  /// Empties cell `slot`, if set (its key came again, and this time its column took its
  /// code).
  @inline(__always)
  package mutating func clear(_ slot: Int) {
    guard !isEmpty, slot >= 0, slot < values.count, !values[slot].isNull else { return }
    // (A wide row's list keeps the slot; set again, the slot is listed twice, and its value
    // put twice in the row: the second replaces the first. Codes come only for dense columns,
    // where a value put again in a row replaces it.)
    (values[slot], spellings[slot]) = (.null, 0..<0)
  }

  /// Empties every cell.
  package mutating func removeAll() {
    guard !isEmpty else { return }
    isEmpty = true
    if var listed = touched {
      touched = nil  // (so that the list is not copied as it is emptied)
      for slot in listed { (values[slot], spellings[slot]) = (.null, 0..<0) }
      listed.removeAll(keepingCapacity: true)
      touched = listed
      return
    }
    for slot in values.indices where !values[slot].isNull || !spellings[slot].isEmpty {
      (values[slot], spellings[slot]) = (.null, 0..<0)
    }
  }

  /// Makes room for `slot`; in a wide row, lists it when it is first given a value
  /// (`listing`: a null adds nothing to a row, so each slot is listed once).
  private mutating func touch(_ slot: Int, listing: Bool) {
    if slot >= values.count { widen(to: slot + 1) }
    if touched != nil, listing, values[slot].isNull { touched?.append(slot) }
  }

  private mutating func widen(to width: Int) {
    guard values.count < width else { return }
    let more = width - values.count
    values += repeatElement(.null, count: more)
    spellings += repeatElement(0..<0, count: more)
    if !isWide && values.count > RowCells.wide {
      // From now on the slots set are listed: those set so far first.
      touched = values.indices.filter { !values[$0].isNull }
    }
  }
}
