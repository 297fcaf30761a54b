import FilterDSL

/// The lexical layer of the JSON reader: whitespace, strings, numbers and literals over raw
/// UTF-8 bytes, and skipping whole values. Every read is checked against `end`, so no input
/// can read out of bounds; running out of bytes inside a value is a `truncated` problem, which
/// the reader answers by reading more input.
///
/// Newlines are counted as whitespace is skipped (valid JSON has them nowhere else), so that
/// errors can name their line without another pass over the data.
struct JSONScanner {
  /// The deepest nesting of arrays and objects accepted.
  static let maxDepth = 256

  let bytes: UnsafeBufferPointer<UInt8>
  var index: Int
  let end: Int
  /// Newlines passed since the reader last reset the count, and where the last line begins.
  var newlines = 0
  var lineStart = 0
  /// Which strings stand for null (see ``ReadOptions``).
  var nulls: NullTexts? = nil
  /// The decoded text of the last date or duration read (reused, so that reading one
  /// allocates nothing).
  var scratch: [UInt8] = []

  init(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int, to end: Int) {
    self.bytes = bytes
    self.index = index
    self.end = Swift.min(end, bytes.count)
  }

  /// The byte at the cursor, or nil at the end.
  @inline(__always) var peek: UInt8? { index < end ? bytes[index] : nil }

  @inline(__always) mutating func skipSpace() {
    while index < end {
      let byte = bytes[index]
      if byte == 0x20 || byte == 0x09 || byte == 0x0D {
        index += 1
      } else if byte == 0x0A {
        index += 1
        newlines += 1
        lineStart = index
      } else {
        return
      }
    }
  }

  /// Consumes `byte` after optional whitespace, or fails saying what was expected.
  mutating func expect(_ byte: UInt8, _ what: String) throws(DataProblem) {
    skipSpace()
    guard let next = peek else { throw .truncated(index, "the input ends where \(what) belongs") }
    guard next == byte else { throw unexpected(what) }
    index += 1
  }

  /// "expected X, found Y" at the cursor.
  func unexpected(_ what: String) -> DataProblem {
    guard let byte = peek else { return .truncated(index, "the input ends where \(what) belongs") }
    let found =
      byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : describe(byte)
    return DataProblem(
      code: .invalidJSON, message: "expected \(what), found \(found)", label: "here",
      offset: index)
  }

  private func describe(_ byte: UInt8) -> String {
    switch byte {
    case 0x0A: "the end of the line"
    case 0x20: "a space"
    case ..<0x20: "a control character"
    default: "'\(String(decoding: [byte], as: UTF8.self))'"
    }
  }

  // MARK: Strings

  /// A string at the cursor (which is at its opening quote): its decoded text.
  mutating func string() throws(DataProblem) -> String {
    let (start, stop, simple) = try scanString()
    if simple {
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<stop]), as: UTF8.self)
    }
    return try decode(start, stop)
  }

  /// The decoded UTF-8 bytes of a string at the cursor.
  mutating func stringBytes() throws(DataProblem) -> [UInt8] {
    let (start, stop, simple) = try scanString()
    if simple { return Array(bytes[start..<stop]) }
    return Array(try decode(start, stop).utf8)
  }

  /// Scans a string: the range of its contents (without quotes) and whether they are plain
  /// (no escapes; valid UTF-8, checked here), so the bytes are the text.
  mutating func scanString() throws(DataProblem) -> (start: Int, end: Int, simple: Bool) {
    let start = index + 1
    var cursor = start
    var ascii = true
    var escaped = false
    let raw = UnsafeRawBufferPointer(bytes)
    while cursor < end {
      // Eight bytes at a time up to the first quote, backslash or control character: each
      // test flags the high bit of such a byte, and its lowest flag is the first one (a flag
      // may be wrong only above a true one). A byte of 128 or more, there or past it, marks
      // the string for a check of its UTF-8 (only a check).
      while cursor + 8 <= end {
        let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: cursor, as: UInt64.self))
        let special =
          Self.hasZeroByte(word ^ 0x2222_2222_2222_2222)
          | Self.hasZeroByte(word ^ 0x5C5C_5C5C_5C5C_5C5C)
          | (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080
        if word & 0x8080_8080_8080_8080 != 0 { ascii = false }
        if special != 0 {
          cursor += special.trailingZeroBitCount >> 3
          break
        }
        cursor += 8
      }
      guard cursor < end else { break }
      let byte = bytes[cursor]
      if byte == 0x22 {
        index = cursor + 1
        if !ascii { try validateUTF8(start, cursor) }
        return (start, cursor, !escaped)
      } else if byte == 0x5C {
        escaped = true
        cursor += 2
        continue
      } else if byte < 0x20 {
        throw DataProblem(
          code: .invalidJSON,
          message: byte == 0x0A
            ? "string is not closed on its line" : "control character in a string",
          label: byte == 0x0A ? "the line ends inside the string" : "here",
          help: "write control characters as escapes such as \\n or \\u0001",
          offset: cursor)
      } else if byte >= 0x80 {
        ascii = false
      }
      cursor += 1
    }
    throw .truncated(index, "string is never closed", help: "add '\"' at the end of the string")
  }

  /// Whether any byte of `word` is zero (a flag in its high bit; the flags of the bytes after
  /// the first zero one may be wrong, but there is one if and only if a byte is zero).
  @inline(__always) static func hasZeroByte(_ word: UInt64) -> UInt64 {
    (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
  }

  private func validateUTF8(_ start: Int, _ stop: Int) throws(DataProblem) {
    if let bad = UTF8Validation.firstInvalid(bytes, start, stop) {
      throw DataProblem(
        code: .invalidUTF8, message: "invalid UTF-8 in a string", label: "this byte",
        help: "save the file as UTF-8", offset: bad)
    }
  }

  /// Puts the text of the string whose contents are `start..<stop` in ``scratch``, decoded
  /// unless it is `simple` (has no escapes).
  mutating func text(_ start: Int, _ stop: Int, simple: Bool) throws(DataProblem) {
    scratch.removeAll(keepingCapacity: true)
    if simple {
      scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<stop]))
    } else {
      scratch.append(contentsOf: try decode(start, stop).utf8)
    }
  }

  /// Decodes the escapes of a string's contents (already scanned and validated).
  func decode(_ start: Int, _ stop: Int) throws(DataProblem) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(stop - start)
    var cursor = start
    var pendingHigh: UInt32? = nil
    func scalar(_ value: UInt32) {
      let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
      out.append(contentsOf: Array(String(Character(scalar)).utf8))
    }
    while cursor < stop {
      let byte = bytes[cursor]
      guard byte == 0x5C else {
        if let high = pendingHigh {
          scalar(high)
          pendingHigh = nil
        }
        out.append(byte)
        cursor += 1
        continue
      }
      guard cursor + 1 < stop else { break }
      let kind = bytes[cursor + 1]
      if kind == UInt8(ascii: "u") {
        guard cursor + 6 <= stop, let code = hex4(cursor + 2) else {
          throw DataProblem(
            code: .invalidJSON, message: "invalid \\u escape", label: "here",
            help: "\\u is followed by four hexadecimal digits, as in \\u00e9", offset: cursor)
        }
        cursor += 6
        if (0xD800..<0xDC00).contains(code) {
          if let high = pendingHigh { scalar(high) }
          pendingHigh = code
        } else if (0xDC00..<0xE000).contains(code), let high = pendingHigh {
          scalar(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00))
          pendingHigh = nil
        } else {
          if pendingHigh != nil { scalar(0xFFFD) }
          pendingHigh = nil
          // A lone surrogate becomes U+FFFD, as most JSON tools do.
          scalar((0xD800..<0xE000).contains(code) ? 0xFFFD : code)
        }
        continue
      }
      if let high = pendingHigh {
        scalar(high)
        pendingHigh = nil
      }
      let decoded: UInt8
      switch kind {
      case UInt8(ascii: "\""): decoded = 0x22
      case UInt8(ascii: "\\"): decoded = 0x5C
      case UInt8(ascii: "/"): decoded = 0x2F
      case UInt8(ascii: "b"): decoded = 0x08
      case UInt8(ascii: "f"): decoded = 0x0C
      case UInt8(ascii: "n"): decoded = 0x0A
      case UInt8(ascii: "r"): decoded = 0x0D
      case UInt8(ascii: "t"): decoded = 0x09
      default:
        throw DataProblem(
          code: .invalidJSON, message: "invalid escape in a string", label: "here",
          help: "the escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX", offset: cursor)
      }
      out.append(decoded)
      cursor += 2
    }
    if let high = pendingHigh { scalar(high) }
    return String(decoding: out, as: UTF8.self)
  }

  private func hex4(_ at: Int) -> UInt32? {
    var value: UInt32 = 0
    for i in at..<(at + 4) {
      let byte = bytes[i]
      let digit: UInt8
      switch byte {
      case 0x30...0x39: digit = byte - 0x30
      case 0x41...0x46: digit = byte - 0x41 + 10
      case 0x61...0x66: digit = byte - 0x61 + 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  // MARK: Numbers and literals

  /// A number at the cursor: an integer when it is written as one and fits 64 bits, otherwise
  /// a double (out-of-range magnitudes become infinities, as in most JSON tools).
  mutating func number() throws(DataProblem) -> Value {
    let (start, negative, magnitude, exact) = try scanNumber()
    if exact {
      if negative {
        if magnitude <= UInt64(Int64.max) { return .int(-Int64(magnitude)) }
        if magnitude == UInt64(Int64.max) + 1 { return .int(Int64.min) }
      } else if magnitude <= UInt64(Int64.max) {
        return .int(Int64(magnitude))
      }
    }
    return .double(NumberText.double(bytes, start, index))
  }

  /// Moves past the number at the cursor, checking that it is well formed: where it starts,
  /// its sign, and its magnitude, exact when it is written as an integer that fits 64 bits.
  /// (Skipping a number needs no more: converting a decimal took a tenth of a filter that
  /// skips most fields.)
  private mutating func scanNumber() throws(DataProblem) -> (
    start: Int, negative: Bool, magnitude: UInt64, exact: Bool
  ) {
    let start = index
    var cursor = index
    var negative = false
    if cursor < end, bytes[cursor] == 0x2D {
      negative = true
      cursor += 1
    }
    let digitsStart = cursor
    var magnitude: UInt64 = 0
    var overflow = false
    while cursor < end, bytes[cursor] &- 0x30 < 10 {
      let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
      let (plus, o2) = times.addingReportingOverflow(UInt64(bytes[cursor] &- 0x30))
      overflow = overflow || o1 || o2
      magnitude = plus
      cursor += 1
    }
    let intDigits = cursor - digitsStart
    guard intDigits > 0 else {
      index = cursor
      if cursor >= end { throw .truncated(cursor, "the input ends inside a number") }
      throw unexpected("a digit")
    }
    if intDigits > 1 && bytes[digitsStart] == 0x30 {
      throw DataProblem(
        code: .invalidJSON, message: "numbers do not start with 0 in JSON", label: "here",
        help: "write the number without leading zeros, or as a string", offset: digitsStart)
    }
    var integral = true
    if cursor < end, bytes[cursor] == 0x2E {
      integral = false
      cursor += 1
      let fractionStart = cursor
      while cursor < end, bytes[cursor] &- 0x30 < 10 { cursor += 1 }
      if cursor == fractionStart {
        index = cursor
        throw cursor >= end
          ? .truncated(cursor, "the input ends inside a number") : unexpected("a digit after '.'")
      }
    }
    if cursor < end, bytes[cursor] | 0x20 == 0x65 {
      integral = false
      cursor += 1
      if cursor < end, bytes[cursor] == 0x2B || bytes[cursor] == 0x2D { cursor += 1 }
      let exponentStart = cursor
      while cursor < end, bytes[cursor] &- 0x30 < 10 { cursor += 1 }
      if cursor == exponentStart {
        index = cursor
        throw cursor >= end
          ? .truncated(cursor, "the input ends inside a number")
          : unexpected("a digit in the exponent")
      }
    }
    // A number that reaches the end of the buffer may go on in the next one.
    if cursor >= end { throw .truncated(start, "the input ends inside a number") }
    index = cursor
    return (start, negative, magnitude, integral && !overflow)
  }

  /// `true`, `false` or `null` at the cursor.
  mutating func literal() throws(DataProblem) -> Value {
    for (word, value) in JSONScanner.literals where bytes[index] == word.first {
      let stop = index + word.count
      guard stop <= end else { throw .truncated(index, "the input ends inside a literal") }
      if bytes[index..<stop].elementsEqual(word) {
        index = stop
        return value
      }
    }
    throw unexpected("a value")
  }

  private static let literals: [([UInt8], Value)] = [
    (Array("true".utf8), .bool(true)), (Array("false".utf8), .bool(false)),
    (Array("null".utf8), .null),
  ]

  // MARK: Skipping

  /// Skips the value at the cursor, checking that it is well formed.
  mutating func skipValue(depth: Int) throws(DataProblem) {
    skipSpace()
    guard let byte = peek else { throw .truncated(index, "the input ends where a value belongs") }
    switch byte {
    case 0x22: _ = try scanString()
    case 0x7B:
      try container(depth: depth, close: 0x7D) { (scanner: inout JSONScanner) throws(DataProblem) in
        scanner.skipSpace()
        guard scanner.peek == 0x22 else { throw scanner.unexpected("a key in quotes") }
        _ = try scanner.scanString()
        try scanner.expect(0x3A, "':' after the key")
        try scanner.skipValue(depth: depth + 1)
      }
    case 0x5B:
      try container(depth: depth, close: 0x5D) { (scanner: inout JSONScanner) throws(DataProblem) in
        try scanner.skipValue(depth: depth + 1)
      }
    case 0x2D, 0x30...0x39: _ = try scanNumber()
    case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): _ = try literal()
    default: throw unexpected("a value")
    }
  }

  /// Walks an object or array at the cursor (its opening bracket), calling `element` for each
  /// member; checks the commas, the closing bracket and the depth.
  mutating func container(
    depth: Int, close: UInt8,
    _ element: (inout JSONScanner) throws(DataProblem) -> Void
  ) throws(DataProblem) {
    guard try enter(depth: depth, close: close) else { return }
    repeat {
      try element(&self)
    } while try next(close: close)
  }

  /// Enters the object or array at the cursor (its opening bracket, `close` the bracket that
  /// ends it): whether it has a member, at which the cursor is then; an empty one is passed.
  /// With ``next(close:)``, the steps of ``container(depth:close:_:)`` for a loop that calls
  /// no closure per member.
  @inline(__always) mutating func enter(depth: Int, close: UInt8) throws(DataProblem) -> Bool {
    guard depth < JSONScanner.maxDepth else {
      throw DataProblem(
        code: .dataTooDeep,
        message: "arrays and objects nest more than \(JSONScanner.maxDepth) deep",
        label: "too deep", help: "flatten the data", offset: index)
    }
    index += 1
    skipSpace()
    if peek == close {
      index += 1
      return false
    }
    return true
  }

  /// After a member: whether another follows (the comma passed), or the container ends (its
  /// closing bracket passed).
  @inline(__always) mutating func next(close: UInt8) throws(DataProblem) -> Bool {
    skipSpace()
    guard let next = peek else {
      throw .truncated(index, "the input ends before \(close == 0x7D ? "'}'" : "']'")")
    }
    if next == close {
      index += 1
      return false
    }
    guard next == 0x2C else { throw unexpected("',' or \(close == 0x7D ? "'}'" : "']'")") }
    index += 1
    return true
  }
}
