/// The text of a filter, query or script, with the name used in diagnostics.
///
/// The text is kept as UTF-8 bytes, which is what the lexer scans; ranges into it are byte
/// offsets (``SourceRange``).
public struct SourceText: Sendable {
  /// The name shown in diagnostics: a file path, or a placeholder such as `<filter>`.
  public let name: String
  /// The text itself.
  public let text: String
  /// The UTF-8 bytes of ``text``.
  public let utf8: [UInt8]
  /// The number of the text's first line in what it comes from: 1 for a whole file; more for
  /// an entry typed at the REPL after others, or the one line of a large data file that has an
  /// error. Locations and rendered diagnostics count lines from here.
  public let firstLine: Int
  /// The column of the text's first character on its first line: 1, unless the text is the
  /// end of a line whose beginning was not kept (a data file's long line). Columns on the
  /// first line count from here.
  public let firstColumn: Int

  /// Wraps `text`, to be reported under `name`, its first line numbered `firstLine` and its
  /// first character at column `firstColumn` of that line.
  public init(_ text: String, name: String = "<filter>", firstLine: Int = 1, firstColumn: Int = 1) {
    self.name = name
    self.text = text
    self.utf8 = Array(text.utf8)
    self.firstLine = firstLine
    self.firstColumn = Swift.max(1, firstColumn)
  }

  /// The text covered by `range`, clamped to the source.
  public func slice(_ range: SourceRange) -> String {
    let lower = Swift.min(Swift.max(range.start, 0), utf8.count)
    let upper = Swift.min(Swift.max(range.end, lower), utf8.count)
    return String(decoding: utf8[lower..<upper], as: UTF8.self)
  }

  /// The line (counted from ``firstLine``) and column of a byte offset. Offsets outside the
  /// text are clamped.
  public func location(of offset: Int) -> SourceLocation {
    var location = LineTable(utf8).location(of: offset, in: utf8)
    if location.line == 1 { location.column += firstColumn - 1 }
    location.line += firstLine - 1
    return location
  }
}

/// The start offset of every line of a text, for turning offsets into lines and columns.
struct LineTable: Sendable {
  /// `starts[i]` is the byte offset at which line `i + 1` begins. Never empty.
  let starts: [Int]

  init(_ bytes: [UInt8]) {
    var starts = [0]
    for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
      starts.append(offset + 1)
    }
    self.starts = starts
  }

  /// The 0-based index of the line holding `offset` (binary search).
  func lineIndex(of offset: Int) -> Int {
    var low = 0
    var high = starts.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if starts[mid] <= offset { low = mid } else { high = mid - 1 }
    }
    return low
  }

  /// The byte range of line `index` (0-based), without its line break.
  func lineRange(_ index: Int, in bytes: [UInt8]) -> Range<Int> {
    let start = starts[index]
    var end = index + 1 < starts.count ? starts[index + 1] - 1 : bytes.count
    if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    return start..<Swift.max(start, end)
  }

  func location(of offset: Int, in bytes: [UInt8]) -> SourceLocation {
    var cursor = Cursor()
    return location(of: offset, in: bytes, from: &cursor)
  }

  /// A place whose column is known, to count the next column from when it is further on the
  /// same line.
  struct Cursor {
    var offset = -1
    var line = 0
    var column = 0
  }

  /// The location of `offset`, its column counted from `cursor` when that is earlier on the
  /// same line (else from the line's start); `cursor` then moves to `offset`.
  func location(of offset: Int, in bytes: [UInt8], from cursor: inout Cursor) -> SourceLocation {
    let clamped = Swift.min(Swift.max(offset, 0), bytes.count)
    let index = lineIndex(of: clamped)
    let (start, column) =
      cursor.line == index && cursor.offset >= starts[index] && cursor.offset <= clamped
      ? (cursor.offset, cursor.column) : (starts[index], 1)
    let counted = column + String(decoding: bytes[start..<clamped], as: UTF8.self).count
    cursor = Cursor(offset: clamped, line: index, column: counted)
    return SourceLocation(line: index + 1, column: counted)
  }
}
