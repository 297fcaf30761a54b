/// Renders diagnostics as plain text: code, message, `file:line:column`, the source line and
/// a caret run under the range, then notes and help.
///
/// ```
/// error[FLT203]: '(' is never closed
///  --> phones.flt:1:10
///   |
/// 1 | color in (Starlight, "Space Black"
///   |          ^ this '(' has no matching ')'
///   = help: add ')' after the last item
/// ```
///
/// Control characters in the source are shown as `�` so that a diagnostic can never send
/// escape sequences to a terminal; very long lines are cut around the range with `…`.
public struct DiagnosticRenderer: Sendable {
  /// The text the diagnostics point into.
  public let source: SourceText
  /// The widest source excerpt shown, in terminal columns.
  public var maxLineWidth = 100
  /// Whether to colour the output with ANSI escapes (for a terminal): the severity and the
  /// markers in red or yellow, the location and gutter in blue.
  public var colored = false
  private let lines: LineTable

  /// A renderer of diagnostics that point into `source`.
  public init(source: SourceText) {
    self.source = source
    self.lines = LineTable(source.utf8)
  }

  /// All diagnostics, in source order, separated by blank lines.
  public func render(_ diagnostics: [Diagnostic]) -> String {
    // Columns counted on from the one before (in source order), not from the line's start:
    // many diagnostics on one long line cost the line once.
    var cursor = LineTable.Cursor()
    return diagnostics.sortedByPosition().map { render($0, cursor: &cursor) }
      .joined(separator: "\n")
  }

  /// One diagnostic, ending with a newline.
  public func render(_ diagnostic: Diagnostic) -> String {
    var cursor = LineTable.Cursor()
    return render(diagnostic, cursor: &cursor)
  }

  private func render(_ diagnostic: Diagnostic, cursor: inout LineTable.Cursor) -> String {
    // Lines count from the source's first line (``SourceText/firstLine``).
    var start = lines.location(of: diagnostic.range.start, in: source.utf8, from: &cursor)
    if start.line == 1 { start.column += source.firstColumn - 1 }
    start.line += source.firstLine - 1
    var lineNumbers = [start.line]
    for note in diagnostic.notes {
      if let range = note.range {
        lineNumbers.append(lineIndex(of: range.start) + source.firstLine)
      }
    }
    let gutter = String(repeating: " ", count: String(lineNumbers.max() ?? 1).count)

    let accent = diagnostic.isError ? Style.red : Style.yellow
    let bar = paint(gutter + " |", Style.blue)
    var out =
      paint("\(diagnostic.severity.rawValue)[\(diagnostic.code)]", accent)
      + paint(": \(diagnostic.message)", Style.bold) + "\n"
    out += paint("\(gutter)-->", Style.blue) + " \(source.name):\(start)\n"
    out += bar + "\n"
    out += snippet(
      diagnostic.range, marker: "^", label: diagnostic.label, gutter: gutter, accent: accent)
    for note in diagnostic.notes {
      if let range = note.range {
        out += snippet(range, marker: "-", label: note.message, gutter: gutter, accent: Style.blue)
      } else {
        out += paint("\(gutter) =", Style.blue) + " note: \(note.message)\n"
      }
    }
    if let help = diagnostic.help {
      out += paint("\(gutter) =", Style.blue) + " help: \(help)\n"
    }
    return out
  }

  private func lineIndex(of offset: Int) -> Int {
    lines.lineIndex(of: Swift.min(Swift.max(offset, 0), source.utf8.count))
  }

  /// The source line holding `range.start`, and a marker run under the part of `range` on it.
  private func snippet(
    _ range: SourceRange, marker: Character, label: String?, gutter: String, accent: String
  ) -> String {
    let bytes = source.utf8
    let index = lineIndex(of: range.start)
    let line = lines.lineRange(index, in: bytes)
    let start = Swift.min(Swift.max(range.start, line.lowerBound), line.upperBound)
    // Only the bytes that can be shown are looked at (a column is at most four bytes, and
    // the window starts a third of its width before the mark): each diagnostic costs the
    // window, not the line, however long the line or the range.
    let reach = 4 * maxLineWidth
    let end = Swift.max(
      start,
      characterStart(
        Swift.min(Swift.max(range.end, start), line.upperBound, start + reach), in: bytes))
    let from = Swift.max(
      line.lowerBound, characterStart(Swift.max(line.lowerBound, start - reach), in: bytes))
    let to = Swift.max(end, characterStart(Swift.min(line.upperBound, end + reach), in: bytes))

    var cells = displayCells(bytes[from..<start])
    let markStart = cells.count
    cells += displayCells(bytes[start..<end])
    let markEnd = cells.count
    cells += displayCells(bytes[end..<to])

    // Cut long lines to a window around the marked part.
    var first = 0
    var last = cells.count
    let total = cells.reduce(0) { $0 + $1.width }
    if total > maxLineWidth {
      first = Swift.max(0, markStart - maxLineWidth / 3)
      var width = 0
      last = first
      while last < cells.count, width + cells[last].width <= maxLineWidth {
        width += cells[last].width
        last += 1
      }
      last = Swift.max(last, Swift.min(markStart + 1, cells.count))
    }
    var text = first > 0 || from > line.lowerBound ? "…" : ""
    var pad = text.isEmpty ? 0 : 1
    var marks = 0
    for (i, cell) in cells[first..<last].enumerated() {
      text += cell.text
      let position = first + i
      if position < markStart { pad += cell.width }
      if position >= markStart && position < markEnd { marks += cell.width }
    }
    if last < cells.count || to < line.upperBound { text += "…" }
    let lineNumber = String(index + source.firstLine)
    let numberPad = String(repeating: " ", count: gutter.count - lineNumber.count)
    var out = paint("\(numberPad)\(lineNumber) |", Style.blue) + " \(text)\n"
    var marked = String(repeating: marker, count: Swift.max(1, marks))
    if let label, !label.isEmpty { marked += " " + label }
    out += paint("\(gutter) |", Style.blue) + " " + String(repeating: " ", count: pad)
    return out + paint(marked, accent) + "\n"
  }

  private enum Style {
    static let red = "\u{1B}[1;31m"
    static let yellow = "\u{1B}[1;33m"
    static let blue = "\u{1B}[1;34m"
    static let bold = "\u{1B}[1m"
  }

  /// `text` in `style` when ``colored``; otherwise unchanged.
  private func paint(_ text: String, _ style: String) -> String {
    colored ? style + text + "\u{1B}[0m" : text
  }

  private struct Cell {
    var text: String
    var width: Int
  }

  /// `offset`, moved back to the start of the UTF-8 sequence it falls in.
  private func characterStart(_ offset: Int, in bytes: [UInt8]) -> Int {
    var offset = offset
    var steps = 0
    while offset > 0, offset < bytes.count, bytes[offset] & 0xC0 == 0x80, steps < 3 {
      offset -= 1
      steps += 1
    }
    return offset
  }

  /// Characters as they are shown: tabs as four spaces, control characters as `�`.
  private func displayCells(_ bytes: ArraySlice<UInt8>) -> [Cell] {
    String(decoding: bytes, as: UTF8.self).map { character in
      if character == "\t" { return Cell(text: "    ", width: 4) }
      if character.unicodeScalars.contains(where: {
        $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
      }) {
        return Cell(text: "\u{FFFD}", width: 1)
      }
      return Cell(text: String(character), width: DisplayWidth.of(character))
    }
  }
}
