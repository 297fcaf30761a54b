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
      (self.text, width) = DisplayWidth.fit(TableText.printable(text), maxWidth)
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
  /// The widest the whole table may be (a terminal's width): the widest columns are
  /// narrowed, their cells cut with `…`, until it fits (no column below 4). Nil: no limit.
  package var maxTotalWidth: Int?
  /// What the footer adds when columns were narrowed to fit ``maxTotalWidth``: how to see
  /// the rest (`show f1, f2 or set format records`). Nil: nothing.
  package var cutHint: String?

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
    let headers = self.headers.map { DisplayWidth.fit(TableText.printable($0), maxCellWidth) }
    var widths = headers.map(\.width)
    for row in rows {
      for (i, cell) in row.enumerated() where i < widths.count {
        widths[i] = Swift.max(widths[i], cell.width)
      }
    }
    let natural = widths
    if let maxTotalWidth { TableLayout.narrow(&widths, toFit: maxTotalWidth) }
    let numeric = headers.indices.map { column in
      rows.contains { column < $0.count && $0[column].isNumber }
        && rows.allSatisfy { row in
          column < row.count && (row[column].isNumber || row[column].isEmpty)
        }
    }
    func line(_ cells: [(text: String, width: Int, dim: Bool)]) -> String {
      var parts: [String] = []
      for (i, cell) in cells.enumerated() where i < widths.count {
        // A cell wider than its narrowed column is cut again (before any escape is added).
        var (text, width) =
          cell.width > widths[i] ? DisplayWidth.fit(cell.text, widths[i]) : (cell.text, cell.width)
        if cell.dim && !text.isEmpty { text = "\u{1B}[2m" + text + "\u{1B}[0m" }
        let pad = String(repeating: " ", count: Swift.max(0, widths[i] - width))
        let last = i == cells.count - 1
        parts.append(numeric[i] ? pad + text : text + (last ? "" : pad))
      }
      var text = parts.joined(separator: "  ")
      while text.last == " " { text.removeLast() }
      return text
    }
    let header = line(headers.map { ($0.text, $0.width, false) })
    out.write(styled ? "\u{1B}[1m" + header + "\u{1B}[0m\n" : header + "\n")
    out.write(widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ") + "\n")
    for row in rows {
      out.write(line(row.map { ($0.text, $0.width, styled && $0.isNull) }) + "\n")
    }
    var closing = footer
    if widths != natural, let cutHint {
      closing = footer.isEmpty ? "cut to fit: \(cutHint)" : "\(footer) (cut to fit: \(cutHint))"
    }
    if !closing.isEmpty { out.write(closing + "\n") }
  }

  /// Narrows the widest of `widths` a column at a time until the columns and the two spaces
  /// between them fit in `total`, or every column is down to 4.
  static func narrow(_ widths: inout [Int], toFit total: Int) {
    let gaps = Swift.max(0, widths.count - 1) * 2
    var excess = widths.reduce(gaps, +) - total
    while excess > 0, let widest = widths.indices.max(by: { widths[$0] < widths[$1] }),
      widths[widest] > 4
    {
      widths[widest] -= 1
      excess -= 1
    }
  }
}
