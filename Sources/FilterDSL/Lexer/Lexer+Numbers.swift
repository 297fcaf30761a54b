extension Lexer {
  /// Numbers, and what starts like one: dates (`2022-09-16`), times of day (`22:00`),
  /// durations (`1h30m`) and words that start with digits (`5G`, `256GB`).
  mutating func scanNumber() {
    let start = index
    if DateLiteral.startsAt(bytes, index) {
      let (end, value) = DateLiteral.scan(bytes, at: index)
      index = end
      switch value {
      case .success(.dateTime): emit(.dateTime, from: start)
      case .success: emit(.date, from: start)
      case .failure(let problem):
        emit(.invalid, from: start)
        report(problem)
      }
      return
    }
    if DateLiteral.timeStartsAt(bytes, index) {
      let (end, value) = DateLiteral.scanTime(bytes, at: index)
      index = end
      switch value {
      case .success: emit(.time, from: start)
      case .failure(let problem):
        emit(.invalid, from: start)
        report(problem)
      }
      return
    }
    if peek() == UInt8(ascii: "0"),
      [UInt8(ascii: "x"), UInt8(ascii: "o"), UInt8(ascii: "b")].contains(peek(1) | 0x20),
      table[Int(peek(2))].contains(.identifierPart)
    {
      index += 2
      skipIdentifierPart()
      finishInteger(from: start, radix: true)
      return
    }
    skipDigits()
    var isDecimal = false
    var hasExponent = false
    if peek() == UInt8(ascii: "."), table[Int(peek(1))].contains(.digit) {
      index += 1
      skipDigits()
      isDecimal = true
    }
    if peek() | 0x20 == UInt8(ascii: "e") {
      let signed = peek(1) == UInt8(ascii: "+") || peek(1) == UInt8(ascii: "-")
      if table[Int(peek(signed ? 2 : 1))].contains(.digit) {
        index += signed ? 2 : 1
        skipDigits()
        isDecimal = true
        hasExponent = true
      }
    }
    let numberEnd = index
    skipIdentifierPart()
    if index > numberEnd {
      scanSuffixed(from: start, numberEnd: numberEnd, isDecimal: isDecimal)
    } else if isDecimal {
      // Without an exponent, only a number of over 300 digits can be out of range.
      if (!hasExponent && index - start < 300)
        || LiteralDecoder.decimal(bytes, start..<index) != nil
      {
        emit(.decimal, from: start)
      } else {
        emit(.invalid, from: start)
        diagnostics.append(.numberOutOfRange(at: SourceRange(start: start, end: index)))
      }
    } else {
      finishInteger(from: start, radix: false)
    }
  }

  private mutating func skipDigits() {
    while index < bytes.count,
      table[Int(bytes[index])].contains(.digit) || bytes[index] == UInt8(ascii: "_")
    {
      index += 1
    }
  }

  /// Integers may be up to 2^63 here: `-9223372036854775808` is valid, and only the parser
  /// knows whether a minus comes first.
  private mutating func finishInteger(from start: Int, radix: Bool) {
    let range = SourceRange(start: start, end: index)
    guard let value = LiteralDecoder.integer(bytes, start..<index), value <= UInt64(Int64.max) + 1
    else {
      let text = String(decoding: bytes[start..<index], as: UTF8.self)
      emit(.invalid, from: start)
      if !radix, text.allSatisfy({ $0.isNumber || $0 == "_" }) {
        diagnostics.append(.integerTooLarge(text, at: range))
      } else {
        diagnostics.append(.malformedNumber(text, at: range))
      }
      return
    }
    _ = value
    emit(.integer, from: start)
  }

  /// A number run into letters: a duration, a distance in kilometres, a word such as `5G`, or
  /// a mistake.
  private mutating func scanSuffixed(from start: Int, numberEnd: Int, isDecimal: Bool) {
    let range = SourceRange(start: start, end: index)
    if index - numberEnd == 2, bytes[numberEnd] == UInt8(ascii: "k"),
      bytes[numberEnd + 1] == UInt8(ascii: "m")
    {
      if LiteralDecoder.kilometres(bytes, start..<index) != nil {
        emit(.length, from: start)
      } else {
        emit(.invalid, from: start)
        diagnostics.append(.numberOutOfRange(at: range))
      }
      return
    }
    if isDecimal {
      emit(.invalid, from: start)
      if LiteralDecoder.unit(bytes, at: numberEnd, end: index) != nil {
        diagnostics.append(
          .fractionalDuration(String(decoding: bytes[start..<index], as: UTF8.self), at: range))
      } else {
        diagnostics.append(
          .malformedNumber(String(decoding: bytes[start..<index], as: UTF8.self), at: range))
      }
      return
    }
    switch LiteralDecoder.duration(bytes, start..<index) {
    case .duration: emit(.duration, from: start)
    case .notADuration: emit(.word, from: start)
    case .invalid(let problem):
      emit(.invalid, from: start)
      report(problem)
    }
  }
}
