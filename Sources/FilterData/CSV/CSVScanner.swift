import FilterDSL

/// One field of a CSV record: where its text is, and whether it was quoted (then its text may
/// hold doubled quotes that stand for one).
struct CSVCell {
  var start: Int
  var end: Int
  var quoted: Bool
  /// In TSV, an unquoted cell with a backslash: its text decodes `\t`, `\n`, `\r`, `\\`.
  var escaped = false
}

/// Splits RFC 4180 CSV into records and fields over raw bytes: quoted fields with doubled
/// quotes and line breaks inside, CRLF or LF line ends. Every read is checked against `end`.
struct CSVScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var index: Int
  let end: Int
  /// Whether `end` is the end of the input (otherwise a record that reaches it is truncated).
  let atEnd: Bool
  /// The byte between cells: `,`, or a tab for TSV.
  let separator: UInt8
  /// Whether spaces at the start of a cell are skipped (see `ReadOptions.skipsInitialSpace`).
  let skipsInitialSpace: Bool
  /// Whether backslash escapes in unquoted cells are read (TSV: `\t`, `\n`, `\r`, `\\`).
  let decodesEscapes: Bool
  /// Newlines passed, and where the current line begins (as in ``JSONScanner``).
  var newlines = 0
  var lineStart = 0

  init(
    _ bytes: UnsafeBufferPointer<UInt8>, from index: Int, to end: Int, atEnd: Bool,
    separator: UInt8 = 0x2C, skipsInitialSpace: Bool = false, decodesEscapes: Bool = false
  ) {
    self.separator = separator
    self.skipsInitialSpace = skipsInitialSpace
    self.decodesEscapes = decodesEscapes
    self.bytes = bytes
    self.index = index
    self.end = Swift.min(end, bytes.count)
    self.atEnd = atEnd
  }

  /// Reads the next record into `cells` and returns the range of its text (without the line
  /// break), or nil at the end of the input. Blank lines are skipped.
  mutating func record(into cells: inout [CSVCell]) throws(DataProblem) -> Range<Int>? {
    while true {
      cells.removeAll(keepingCapacity: true)
      guard index < end else {
        if atEnd { return nil }
        throw .truncated(index, "the input ends inside a record")
      }
      let start = index
      var high: UInt8 = 0
      while true {
        let (cell, stop) = try field(&high)
        cells.append(cell)
        if stop == .comma { continue }
        var textEnd = index
        if stop == .newline {
          textEnd -= 1
          newlines += 1
          lineStart = index
        }
        if textEnd > start && bytes[textEnd - 1] == 0x0D { textEnd -= 1 }
        if cells.count == 1 && cells[0].start == cells[0].end && !cells[0].quoted {
          break  // a blank line
        }
        if high >= 0x80, let bad = UTF8Validation.firstInvalid(bytes, start, textEnd) {
          throw DataProblem(
            code: .invalidUTF8, message: "invalid UTF-8 in a field", label: "this byte",
            help: "save the file as UTF-8", offset: bad)
        }
        return start..<textEnd
      }
    }
  }

  /// An unquoted cell from `start` to `end`; in TSV, escaped when it holds a backslash (looked
  /// for only there, so that CSV's loop over the bytes does not pay for it).
  @inline(__always)
  private func unquoted(_ start: Int, _ end: Int) -> CSVCell {
    var cell = CSVCell(start: start, end: end, quoted: false)
    if decodesEscapes {
      cell.escaped = UnsafeBufferPointer(rebasing: bytes[start..<end]).contains(0x5C)
    }
    return cell
  }

  /// Moves past blank lines (a line break alone, or after a carriage return), counting them:
  /// a reader that stops at a record cut off by the end of its buffer then keeps none of them
  /// (any number of blank lines costs no memory, and is passed once).
  @inline(__always)
  mutating func skipBlankLines() {
    while index < end {
      if bytes[index] == 0x0A {
        index += 1
      } else if bytes[index] == 0x0D, index + 1 < end, bytes[index + 1] == 0x0A {
        index += 2
      } else {
        return
      }
      newlines += 1
      lineStart = index
    }
  }

  enum Stop { case comma, newline, end }

  /// One field at the cursor, and what ended it (the cursor moves past that).
  private mutating func field(_ high: inout UInt8) throws(DataProblem) -> (CSVCell, Stop) {
    if skipsInitialSpace {
      while index < end && bytes[index] == 0x20 { index += 1 }
    }
    if index < end && bytes[index] == 0x22 { return try quotedField(&high) }
    let start = index
    // Eight bytes at a time up to the first that ends the cell or is wrong in it (a quote,
    // except in TSV), which the loop after takes as before.
    let raw = UnsafeRawBufferPointer(bytes)
    var seen: UInt64 = 0
    while index &+ 8 <= end {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      var flags = ByteWords.equal(word, separator) | ByteWords.equal(word, 0x0A)
      if separator != 0x09 { flags |= ByteWords.equal(word, 0x22) }
      if flags != 0 {
        let passed = flags.trailingZeroBitCount >> 3
        seen |= ByteWords.prefix(word, passed)
        index &+= passed
        break
      }
      seen |= word
      index &+= 8
    }
    if seen & 0x8080_8080_8080_8080 != 0 { high |= 0x80 }
    while index < end {
      let byte = bytes[index]
      high |= byte
      switch byte {
      case separator:
        index += 1
        return (unquoted(start, index - 1), .comma)
      case 0x0A:
        index += 1
        var stop = index - 1
        if stop > start && bytes[stop - 1] == 0x0D { stop -= 1 }
        return (unquoted(start, stop), .newline)
      case 0x22 where separator != 0x09:
        // In TSV a quote inside a cell is text (`5" screen`).
        throw DataProblem(
          code: .invalidCSV, message: "a quote inside a field that does not start with one",
          label: "this quote",
          help: "quote the whole field and double the quotes inside it: \"say \"\"hi\"\"\"",
          offset: index)
      default:
        index += 1
      }
    }
    guard atEnd else { throw .truncated(start, "the input ends inside a field") }
    var stop = index
    if stop > start && bytes[stop - 1] == 0x0D { stop -= 1 }
    return (unquoted(start, stop), .end)
  }

  private mutating func quotedField(_ high: inout UInt8) throws(DataProblem) -> (CSVCell, Stop) {
    let open = index
    let (openNewlines, openLineStart) = (newlines, lineStart)
    let start = index + 1
    var cursor = start
    while cursor < end {
      let byte = bytes[cursor]
      high |= byte
      if byte == 0x0A {
        newlines += 1
        lineStart = cursor + 1
      }
      guard byte == 0x22 else {
        cursor += 1
        continue
      }
      if cursor + 1 < end && bytes[cursor + 1] == 0x22 {
        cursor += 2
        continue
      }
      if cursor + 1 >= end && !atEnd { break }
      let cell = CSVCell(start: start, end: cursor, quoted: true)
      index = cursor + 1
      guard index < end else { return (cell, .end) }
      switch bytes[index] {
      case separator:
        index += 1
        return (cell, .comma)
      case 0x0A:
        index += 1
        return (cell, .newline)
      case 0x0D where index + 1 < end && bytes[index + 1] == 0x0A:
        index += 2
        return (cell, .newline)
      case 0x0D where index + 1 >= end && !atEnd:
        throw .truncated(open, "the input ends inside a record")
      default:
        throw DataProblem(
          code: .invalidCSV, message: "text after the closing quote of a field",
          label:
            "expected '\(separator == 0x09 ? "\\t" : String(UnicodeScalar(separator)))' or the end of the line",
          help: "double a quote that belongs to the text: \"\"", offset: index)
      }
    }
    if !atEnd { throw .truncated(open, "the input ends inside a quoted field") }
    index = open
    (newlines, lineStart) = (openNewlines, openLineStart)
    throw DataProblem(
      code: .invalidCSV, message: "quoted field is never closed", label: "this quote",
      help: "add the closing '\"', and double any quote inside the field", offset: open)
  }

  /// The text of a cell: its bytes, with doubled quotes made single in a quoted cell, and
  /// escapes read in an escaped one.
  func text(_ cell: CSVCell) -> String {
    let slice = UnsafeBufferPointer(rebasing: bytes[cell.start..<cell.end])
    if cell.escaped { return CSVScanner.unescaped(slice) }
    guard cell.quoted, slice.contains(0x22) else {
      return String(decoding: slice, as: UTF8.self)
    }
    var out: [UInt8] = []
    out.reserveCapacity(slice.count)
    var skip = false
    for byte in slice {
      if byte == 0x22 && skip {
        skip = false
        continue
      }
      skip = byte == 0x22
      out.append(byte)
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// `\t`, `\n`, `\r` and `\\` read as a tab, a line break, a carriage return and a
  /// backslash; any other backslash is itself (`C:\Users` stays).
  static func unescaped(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      guard byte == 0x5C, index < bytes.count else {
        out.append(byte)
        continue
      }
      switch bytes[index] {
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case 0x5C: out.append(0x5C)
      default:
        out.append(byte)
        continue
      }
      index += 1
    }
    return String(decoding: out, as: UTF8.self)
  }
}
