/// Decoding of literal tokens: numbers, durations, dates and quoted text.
///
/// The lexer calls these to validate a token (and report what is wrong); the parser calls them
/// again for the value. One implementation, so the two can never disagree.
enum LiteralDecoder {
  /// A problem in a literal: what, where (byte offsets), and a likely fix.
  struct Problem: Error, Equatable {
    var code: DiagnosticCode
    var message: String
    var help: String?
    var range: Range<Int>
  }

  // MARK: Numbers

  /// The magnitude of an integer literal (`1_000`, `0xFF`, `0b1010`, `0o17`), or nil when it
  /// does not fit in 64 bits or has no digits.
  static func integer(_ bytes: [UInt8], _ range: Range<Int>) -> UInt64? {
    var index = range.lowerBound
    var radix: UInt64 = 10
    if range.count > 2, bytes[index] == UInt8(ascii: "0") {
      switch bytes[index + 1] | 0x20 {
      case UInt8(ascii: "x"): radix = 16
      case UInt8(ascii: "o"): radix = 8
      case UInt8(ascii: "b"): radix = 2
      default: break
      }
      if radix != 10 { index += 2 }
    }
    var value: UInt64 = 0
    var digits = 0
    while index < range.upperBound {
      let byte = bytes[index]
      index += 1
      if byte == UInt8(ascii: "_") { continue }
      guard let digit = digitValue(byte), digit < radix else { return nil }
      let (shifted, o1) = value.multipliedReportingOverflow(by: radix)
      let (sum, o2) = shifted.addingReportingOverflow(digit)
      if o1 || o2 { return nil }
      value = sum
      digits += 1
    }
    return digits > 0 ? value : nil
  }

  /// The value of a decimal literal (`6.1`, `1e3`, `1_000.5`), or nil when it is not finite.
  static func decimal(_ bytes: [UInt8], _ range: Range<Int>) -> Double? {
    let slice = bytes[range]
    let text =
      slice.contains(UInt8(ascii: "_"))
      ? String(decoding: slice.filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)
      : String(decoding: slice, as: UTF8.self)
    guard let value = Double(text), value.isFinite else { return nil }
    return value
  }

  /// The exact decimal a number written with a point and no exponent spells (`6.10`), or nil
  /// (an exponent, or more than 38 digits: such a number is a double).
  static func exactDecimal(_ bytes: [UInt8], _ range: Range<Int>) -> ExactDecimal? {
    let slice = bytes[range]
    guard !slice.contains(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) else {
      return nil
    }
    return ExactDecimal(String(decoding: slice.filter { $0 != UInt8(ascii: "_") }, as: UTF8.self))
  }

  /// The metres of a distance written in kilometres (`5km`, `1.5km`), or nil when it is out
  /// of range.
  static func kilometres(_ bytes: [UInt8], _ range: Range<Int>) -> Double? {
    guard range.count > 2, let value = decimal(bytes, range.lowerBound..<range.upperBound - 2),
      (value * 1000).isFinite
    else { return nil }
    return value * 1000
  }

  static func digitValue(_ byte: UInt8) -> UInt64? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt64(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt64(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt64(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  // MARK: Durations

  /// How `bytes[range]` reads as a duration (`7d`, `1h30m`, `500ms`).
  enum DurationReading: Equatable {
    /// A valid duration.
    case duration(TimeSpan)
    /// Not a duration at all (`5G`, `1st`): a word.
    case notADuration
    /// Meant as a duration, but wrong.
    case invalid(Problem)
  }

  static func duration(_ bytes: [UInt8], _ range: Range<Int>) -> DurationReading {
    var index = range.lowerBound
    var total: Int64 = 0
    var segments = 0
    while index < range.upperBound {
      let numberStart = index
      var count: Int64 = 0
      var overflow = false
      while index < range.upperBound,
        bytes[index] == UInt8(ascii: "_")
          || CharacterClass.table[Int(bytes[index])].contains(.digit)
      {
        if bytes[index] != UInt8(ascii: "_") {
          let (m, o1) = count.multipliedReportingOverflow(by: 10)
          let (s, o2) = m.addingReportingOverflow(Int64(bytes[index] - UInt8(ascii: "0")))
          overflow = overflow || o1 || o2
          count = s
        }
        index += 1
      }
      if index == numberStart {
        // Letters where a number must be: not a duration.
        return segments == 0
          ? .notADuration : .invalid(unitProblem(bytes, numberStart..<range.upperBound))
      }
      guard let (unitLength, size) = unit(bytes, at: index, end: range.upperBound) else {
        if segments == 0 && index < range.upperBound { return .notADuration }
        return .invalid(
          Problem(
            code: .invalidDuration,
            message:
              "missing unit after \(quoted(String(decoding: bytes[numberStart..<index], as: UTF8.self))) in duration",
            help: "durations use the units w, d, h, m, s, ms, us, ns, as in 1h30m",
            range: numberStart..<index))
      }
      index += unitLength
      segments += 1
      // After the first unit, a letter means this was a word like `1st` all along.
      if segments == 1, index < range.upperBound,
        !CharacterClass.table[Int(bytes[index])].contains(.digit)
      {
        return .notADuration
      }
      let (part, o3) = count.multipliedReportingOverflow(by: size)
      let (sum, o4) = total.addingReportingOverflow(part)
      if overflow || o3 || o4 {
        return .invalid(
          Problem(
            code: .invalidDuration, message: "duration is too long",
            help: "durations can be at most 106751 days", range: range))
      }
      total = sum
    }
    return .duration(TimeSpan(nanoseconds: total))
  }

  private static func unitProblem(_ bytes: [UInt8], _ range: Range<Int>) -> Problem {
    Problem(
      code: .invalidDuration,
      message: "unknown duration unit \(quoted(String(decoding: bytes[range], as: UTF8.self)))",
      help: "durations use the units w, d, h, m, s, ms, us, ns, as in 1h30m", range: range)
  }

  /// The duration unit at `index`, longest match first.
  static func unit(_ bytes: [UInt8], at index: Int, end: Int) -> (length: Int, nanoseconds: Int64)?
  {
    guard index < end else { return nil }
    let first = bytes[index]
    if index + 1 < end, bytes[index + 1] == UInt8(ascii: "s") {
      switch first {
      case UInt8(ascii: "m"): return (2, 1_000_000)
      case UInt8(ascii: "u"): return (2, 1_000)
      case UInt8(ascii: "n"): return (2, 1)
      default: break
      }
    }
    switch first {
    case UInt8(ascii: "w"): return (1, 604_800_000_000_000)
    case UInt8(ascii: "d"): return (1, 86_400_000_000_000)
    case UInt8(ascii: "h"): return (1, 3_600_000_000_000)
    case UInt8(ascii: "m"): return (1, 60_000_000_000)
    case UInt8(ascii: "s"): return (1, 1_000_000_000)
    default: return nil
    }
  }

  // MARK: Quoted text

  /// The text between the quotes of a string or quoted-name token, escapes decoded. Invalid
  /// escapes are reported in `problems` and kept as written.
  static func unquote(_ bytes: [UInt8], _ range: Range<Int>, problems: inout [Problem]) -> String {
    let start = range.lowerBound + 1
    let end = Swift.max(start, range.upperBound - 1)
    guard bytes[start..<end].contains(UInt8(ascii: "\\")) else {
      return String(decoding: bytes[start..<end], as: UTF8.self)
    }
    var out = [UInt8]()
    out.reserveCapacity(end - start)
    var index = start
    while index < end {
      let byte = bytes[index]
      guard byte == UInt8(ascii: "\\"), index + 1 < end else {
        out.append(byte)
        index += 1
        continue
      }
      let escape = bytes[index + 1]
      switch escape {
      case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"), UInt8(ascii: "\\"):
        out.append(escape)
      case UInt8(ascii: "n"): out.append(UInt8(ascii: "\n"))
      case UInt8(ascii: "t"): out.append(UInt8(ascii: "\t"))
      case UInt8(ascii: "r"): out.append(UInt8(ascii: "\r"))
      case UInt8(ascii: "0"): out.append(0)
      case UInt8(ascii: "u"):
        let (length, scalar) = unicodeEscape(bytes, at: index, end: end)
        if let scalar {
          out.append(contentsOf: Array(String(Character(scalar)).utf8))
        } else {
          problems.append(
            Problem(
              code: .invalidEscape,
              message:
                "invalid unicode escape \(LiteralDecoder.quotedText(bytes, index..<index + length))",
              help: "write a unicode escape as \\u{1F600}: 1 to 8 hex digits naming a valid scalar",
              range: index..<index + length))
          out.append(contentsOf: bytes[index..<index + length])
        }
        index += length
        continue
      default:
        let length = scalarLength(bytes, at: index + 1, end: end) + 1
        problems.append(
          Problem(
            code: .invalidEscape,
            message:
              "unknown escape sequence \(LiteralDecoder.quotedText(bytes, index..<index + length))",
            help: #"the escapes are \" \' \` \\ \n \t \r \0 \u{...}; write \\ for a backslash"#,
            range: index..<index + length))
        out.append(contentsOf: bytes[index..<index + length])
        index += length
        continue
      }
      index += 2
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// `\u{...}` at `index`: its length in bytes and the scalar, nil when malformed.
  private static func unicodeEscape(_ bytes: [UInt8], at index: Int, end: Int) -> (
    Int, Unicode.Scalar?
  ) {
    var cursor = index + 2
    guard cursor < end, bytes[cursor] == UInt8(ascii: "{") else { return (2, nil) }
    cursor += 1
    var value: UInt32 = 0
    var digits = 0
    while cursor < end, let digit = digitValue(bytes[cursor]), digit < 16 {
      if digits < 8 { value = value << 4 | UInt32(digit) }
      digits += 1
      cursor += 1
    }
    guard cursor < end, bytes[cursor] == UInt8(ascii: "}") else { return (cursor - index, nil) }
    cursor += 1
    guard (1...8).contains(digits), let scalar = Unicode.Scalar(value) else {
      return (cursor - index, nil)
    }
    return (cursor - index, scalar)
  }

  /// The length of the UTF-8 sequence starting at `index` (1 for a stray byte).
  static func scalarLength(_ bytes: [UInt8], at index: Int, end: Int) -> Int {
    guard index < end else { return 0 }
    let byte = bytes[index]
    let length = byte < 0xC0 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
    return Swift.min(length, end - index)
  }

  static func quotedText(_ bytes: [UInt8], _ range: Range<Int>) -> String {
    quoted(String(decoding: bytes[range], as: UTF8.self))
  }
}
