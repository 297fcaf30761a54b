import FilterDSL

/// Aligned columns for people: a header, a rule, the rows, and a footer line. Numbers are
/// right-aligned when every cell of their column is a number (or empty); cells longer than
/// ``maxCellWidth`` terminal columns are cut with `…`; control characters are made visible.
package struct TableLayout {
  /// One cell, already cut to fit.
  package struct Cell {
    var text: String
    var width: Int
    var isNumber: Bool
    /// Empty, or null: either may stand in a column of numbers.
    var isEmpty: Bool
    /// Whether the cell shows null (dimmed on a terminal).
    var isNull: Bool

    /// The cell showing `text`, cut to `maxWidth` columns; `isNull` when `text` stands for
    /// null.
    package init(_ text: String, isNumber: Bool, maxWidth: Int = 40, isNull: Bool = false) {
      (self.text, width) = TableLayout.fit(TableText.printable(text), maxWidth)
      self.isNumber = isNumber
      isEmpty = text.isEmpty || isNull
      self.isNull = isNull
    }
  }

  /// The column names.
  package var headers: [String]
  /// The rows, each with a cell per column.
  package var rows: [[Cell]] = []
  /// The widest cell shown, in terminal columns.
  package var maxCellWidth: Int
  /// Whether the header is bold (ANSI escapes, for a terminal).
  package var styled = false

  package init(headers: [String], maxCellWidth: Int = 40) {
    self.headers = headers
    self.maxCellWidth = maxCellWidth
  }

  /// The table, then `footer` on a line of its own (none when empty).
  package func text(footer: String) -> String {
    let out = OutputSink()
    write(footer: footer, to: out)
    return out.text
  }

  /// Writes the table line by line, then `footer`.
  package func write(footer: String, to out: OutputSink) {
    let headers = self.headers.map { TableLayout.fit(TableText.printable($0), maxCellWidth) }
    var widths = headers.map(\.width)
    for row in rows {
      for (i, cell) in row.enumerated() where i < widths.count {
        widths[i] = Swift.max(widths[i], cell.width)
      }
    }
    let numeric = headers.indices.map { column in
      rows.contains { column < $0.count && $0[column].isNumber }
        && rows.allSatisfy { row in
          column < row.count && (row[column].isNumber || row[column].isEmpty)
        }
    }
    func line(_ cells: [(text: String, width: Int)]) -> String {
      var parts: [String] = []
      for (i, cell) in cells.enumerated() where i < widths.count {
        let pad = String(repeating: " ", count: Swift.max(0, widths[i] - cell.width))
        let last = i == cells.count - 1
        parts.append(numeric[i] ? pad + cell.text : cell.text + (last ? "" : pad))
      }
      var text = parts.joined(separator: "  ")
      while text.last == " " { text.removeLast() }
      return text
    }
    let header = line(headers)
    out.write(styled ? "\u{1B}[1m" + header + "\u{1B}[0m\n" : header + "\n")
    out.write(widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ") + "\n")
    for row in rows {
      let cells = row.map { cell in
        (
          styled && cell.isNull && !cell.text.isEmpty
            ? "\u{1B}[2m" + cell.text + "\u{1B}[0m" : cell.text, cell.width
        )
      }
      out.write(line(cells) + "\n")
    }
    if !footer.isEmpty { out.write(footer + "\n") }
  }

  /// The text cut to `maxWidth` columns, and its width.
  static func fit(_ text: String, _ maxWidth: Int) -> (text: String, width: Int) {
    let widths = text.map(DisplayWidth.of)
    let total = widths.reduce(0, +)
    guard total > maxWidth else { return (text, total) }
    var cut = ""
    var width = 0
    for (character, w) in zip(text, widths) {
      if width + w >= maxWidth { break }
      cut.append(character)
      width += w
    }
    return (cut + "…", width + 1)
  }
}
