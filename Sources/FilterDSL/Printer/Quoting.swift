/// How names and text are written back as source: the inverse of the lexer's rules.
enum Quoting {
  /// `text` in double quotes, with `"` `\` and control characters escaped.
  static func string(_ text: String) -> String {
    quote(text, delimiter: "\"")
  }

  /// A field or statement name: bare when the lexer reads it back as the same identifier,
  /// otherwise in backticks. `first` is false for path steps after a `.`, where keywords are
  /// plain names; `forceQuotes` for names in value position, where a bare word is text.
  static func name(_ text: String, first: Bool = true, forceQuotes: Bool = false) -> String {
    if !forceQuotes && isPlainIdentifier(text) && !(first && Keywords.isReserved(text)) {
      return text
    }
    return quote(text, delimiter: "`")
  }

  /// Whether the lexer reads `text` as exactly one identifier token (not a keyword check).
  static func isPlainIdentifier(_ text: String) -> Bool {
    var scalars = text.unicodeScalars.makeIterator()
    guard let first = scalars.next() else { return false }
    if first.isASCII {
      guard CharacterClass.table[Int(first.value)].contains(.identifierStart) else { return false }
    } else if !first.properties.isAlphabetic {
      return false
    }
    while let scalar = scalars.next() {
      if scalar.isASCII {
        guard CharacterClass.table[Int(scalar.value)].contains(.identifierPart) else { return false }
      } else if !Lexer.isIdentifierPart(scalar) {
        return false
      }
    }
    return true
  }

  private static func quote(_ text: String, delimiter: Unicode.Scalar) -> String {
    var out = String(delimiter)
    for scalar in text.unicodeScalars {
      switch scalar {
      case delimiter, "\\": out += "\\" + String(scalar)
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      case "\0": out += "\\0"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out.unicodeScalars.append(delimiter)
    return out
  }
}
