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

  /// Reads the JSON record at `scanner`'s cursor (see ``JSONScanner/record(_:into:)``);
  /// ``keep(text:in:)`` then adds it, or ``drop()`` forgets it.
  mutating func read(_ scanner: inout JSONScanner, _ layout: RecordLayout) throws(DataProblem) {
    try scanner.record(layout, into: &self)
  }

  /// Adds the record read last, whose text is `bytes[text]`.
  mutating func keep(text: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) {
    builder.append(&cells, spelledIn: UnsafeRawBufferPointer(bytes))
    texts.append(text)
  }

  /// Forgets the record read last.
  mutating func drop() { cells.removeAll() }

  /// Removes every record (see ``ColumnBuilder/removeRows()``).
  mutating func removeAll() {
    builder.removeRows()
    texts.removeAll(keepingCapacity: true)
  }
}
