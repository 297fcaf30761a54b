extension Lexer {
  /// Operators, brackets, strings, quoted names, parameters, comments and line breaks.
  mutating func scanPunctuation(_ byte: UInt8) {
    let start = index
    index += 1
    switch byte {
    case UInt8(ascii: "\n"):
      if newlines { newline(from: start) }
    case UInt8(ascii: "#"):
      while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
    case UInt8(ascii: "\""), UInt8(ascii: "'"):
      scanQuoted(.string, quote: byte, from: start)
    case UInt8(ascii: "`"):
      scanQuoted(.quotedIdentifier, quote: byte, from: start)
    case UInt8(ascii: "$"):
      scanParameter(from: start)
    case UInt8(ascii: "("):
      openParens.append(tokens.count)
      emit(.leftParen, from: start)
    case UInt8(ascii: ")"):
      // `()` (spaces and line breaks aside) is the empty list.
      if let open = openParens.popLast(), tokens[(open + 1)...].allSatisfy({ $0.kind == .newline })
      {
        tokens[open].opensList = true
      }
      emit(.rightParen, from: start)
    case UInt8(ascii: ","):
      if let open = openParens.last { tokens[open].opensList = true }
      emit(.comma, from: start)
    case UInt8(ascii: ";"): emit(.semicolon, from: start)
    case UInt8(ascii: "+"): emit(.plus, from: start)
    case UInt8(ascii: "-"): emit(.minus, from: start)
    case UInt8(ascii: "*"): emit(.star, from: start)
    case UInt8(ascii: "/"):
      if peek() == UInt8(ascii: "/") {
        index += 1
        emit(.slashSlash, from: start)
      } else {
        emit(.slash, from: start)
      }
    case UInt8(ascii: "%"): emit(.percent, from: start)
    case UInt8(ascii: "^"): emit(.caret, from: start)
    case UInt8(ascii: "~"): emit(.tilde, from: start)
    case UInt8(ascii: "."): scanDot(from: start)
    case UInt8(ascii: "="):
      if peek() == UInt8(ascii: "=") {
        index += 1
        if peek() == UInt8(ascii: "=") {
          return misspelled(from: start, length: 3, as: .equal, "==")
        }
        emit(.equal, from: start)
      } else if peek() == UInt8(ascii: ">") {
        misspelled(from: start, length: 2, as: .greaterEqual, ">=")
      } else if peek() == UInt8(ascii: "<") {
        misspelled(from: start, length: 2, as: .lessEqual, "<=")
      } else {
        emit(.equal, from: start)
      }
    case UInt8(ascii: "!"):
      if peek() == UInt8(ascii: "=") {
        index += 1
        if peek() == UInt8(ascii: "=") {
          return misspelled(from: start, length: 3, as: .notEqual, "!=")
        }
        emit(.notEqual, from: start)
      } else {
        emit(.bang, from: start)
      }
    case UInt8(ascii: "<"):
      if peek() == UInt8(ascii: "=") {
        index += 1
        emit(.lessEqual, from: start)
      } else if peek() == UInt8(ascii: ">") {
        index += 1
        emit(.notEqual, from: start)  // SQL's spelling
      } else if peek() == UInt8(ascii: "<") {
        index += 1
        emit(.shiftLeft, from: start)
      } else {
        emit(.less, from: start)
      }
    case UInt8(ascii: ">"):
      if peek() == UInt8(ascii: "=") {
        index += 1
        emit(.greaterEqual, from: start)
      } else if peek() == UInt8(ascii: ">") {
        index += 1
        emit(.shiftRight, from: start)
      } else {
        emit(.greater, from: start)
      }
    case UInt8(ascii: "&"):
      if peek() == UInt8(ascii: "&") {
        index += 1
        emit(.ampAmp, from: start)
      } else {
        emit(.ampersand, from: start)
      }
    case UInt8(ascii: "|"):
      if peek() == UInt8(ascii: "|") {
        index += 1
        emit(.pipePipe, from: start)
      } else {
        emit(.pipe, from: start)
      }
    case UInt8(ascii: "["):
      scanModifier(from: start)
    case UInt8(ascii: "]"):
      emit(.rightBracket, from: start)
    case 0x1B:
      // A terminal escape sequence (ESC [ parameters letter) is one bad character, not four.
      if peek() == UInt8(ascii: "[") {
        index += 1
        while index < bytes.count, (0x30...0x3F).contains(bytes[index]) { index += 1 }
        if index < bytes.count, (0x40...0x7E).contains(bytes[index]) { index += 1 }
      }
      emit(.invalid, from: start)
      diagnostics.append(
        .unexpectedCharacter("\u{1B}", at: SourceRange(start: start, end: start + 1)))
    default:
      emit(.invalid, from: start)
      diagnostics.append(
        .unexpectedCharacter(String(UnicodeScalar(byte)), at: SourceRange(start: start, end: index))
      )
    }
  }

  /// An operator in another spelling (`=>`, `===`): reported with the right
  /// spelling, and read as meant so that the rest of the line is still checked.
  mutating func misspelled(from start: Int, length: Int, as kind: TokenKind, _ spelling: String) {
    index = start + length
    let written = String(decoding: bytes[start..<index], as: UTF8.self)
    emit(kind, from: start)
    diagnostics.append(
      .misspelledOperator(written, meant: spelling, at: SourceRange(start: start, end: index)))
  }

  /// `...`, `..<`, `.`; `.5` and `..` are explained.
  mutating func scanDot(from start: Int) {
    if peek() == UInt8(ascii: ".") {
      if peek(1) == UInt8(ascii: ".") {
        index += 2
        emit(.closedRange, from: start)
      } else if peek(1) == UInt8(ascii: "<") {
        index += 2
        emit(.halfOpenRange, from: start)
      } else {
        index += 1
        emit(.invalid, from: start)
        diagnostics.append(
          .misspelledOperator(
            "..", meant: "...' or '..<", at: SourceRange(start: start, end: index)))
      }
    } else if CharacterClass.table[Int(peek())].contains(.digit) {
      while CharacterClass.table[Int(peek())].contains(.digit) { index += 1 }
      emit(.invalid, from: start)
      let text = String(decoding: bytes[start..<index], as: UTF8.self)
      diagnostics.append(.leadingDot(text, at: SourceRange(start: start, end: index)))
    } else {
      emit(.dot, from: start)
    }
  }

  /// `$name`.
  mutating func scanParameter(from start: Int) {
    let nameStart = index
    skipIdentifierPart()
    if index == nameStart {
      emit(.invalid, from: start)
      diagnostics.append(.missingParameterName(at: SourceRange(start: start, end: index)))
    } else {
      emit(.parameter, from: start)
    }
  }

  /// `[c]`, `[d]`, `[cd]`, `[dc]`, in either case; any other `[` opens an index.
  mutating func scanModifier(from start: Int) {
    var letters = 0
    var seen: UInt8 = 0
    while letters < 3 {
      let letter = Keywords.lowercase(peek())
      guard letter == UInt8(ascii: "c") || letter == UInt8(ascii: "d"), seen != letter else {
        break
      }
      seen = letter
      letters += 1
      index += 1
    }
    if letters > 0 && peek() == UInt8(ascii: "]") {
      index += 1
      emit(.modifier, from: start)
      return
    }
    index = start + 1
    emit(.leftBracket, from: start)
  }

  /// A string (`"..."`, `'...'`) or quoted name (`` `...` ``). It must end on its line.
  mutating func scanQuoted(_ kind: TokenKind, quote: UInt8, from start: Int) {
    var escapes = false
    while index < bytes.count {
      let byte = bytes[index]
      if byte == quote {
        index += 1
        finishQuoted(kind, from: start, escapes: escapes)
        return
      }
      if byte == UInt8(ascii: "\n") || (byte == UInt8(ascii: "\r") && peek(1) == UInt8(ascii: "\n"))
      {
        break
      }
      if byte == UInt8(ascii: "\\") && index + 1 < bytes.count
        && bytes[index + 1] != UInt8(ascii: "\n")
      {
        escapes = true
        index += 2
      } else {
        index += 1
      }
    }
    // Unterminated: the token runs to the end of the line, the diagnostic points at the quote.
    emit(.invalid, from: start)
    diagnostics.append(
      .unterminatedString(quote: quote, at: SourceRange(start: start, end: start + 1)))
  }

  /// Checks the escapes of a complete quoted token (only when it has any) and emits it.
  private mutating func finishQuoted(_ kind: TokenKind, from start: Int, escapes: Bool) {
    var empty = index - start == 2
    if escapes {
      var problems: [LiteralDecoder.Problem] = []
      empty = LiteralDecoder.unquote(bytes, start..<index, problems: &problems).isEmpty
      problems.forEach { report($0) }
    }
    if kind == .quotedIdentifier && empty {
      emit(.invalid, from: start)
      diagnostics.append(.emptyQuotedName(at: SourceRange(start: start, end: index)))
    } else {
      emit(kind, from: start)
    }
  }
}
