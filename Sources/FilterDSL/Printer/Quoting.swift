/// How names and text are written back as source: the inverse of the lexer's rules.
enum Quoting {
  /// `text` in double quotes, with `"` `\` and control characters escaped.
  static func string(_ text: String) -> String {
    quote(text, delimiter: "\"")
  }

  /// Which words must be quoted where a name stands.
  enum Position {
    /// Where a filter or statement may start: keywords and the words with a meaning by
    /// position (`count`, `order`, `limit`...).
    case start
    /// After a statement keyword (`use`, `let`, `set`, `as`): reserved keywords only.
    case statementName
    /// A path step after `.`: any word is a name there.
    case pathStep
    /// Value position, where a bare word is text: always quoted.
    case value
    /// A function's name before `(`: the text operators are functions too.
    case callee
  }

  /// A field, function or statement name: bare when the parser reads it back as the same name
  /// at `position`, otherwise in backticks.
  static func name(_ text: String, at position: Position = .start) -> String {
    guard isPlainIdentifier(text) else { return quote(text, delimiter: "`") }
    let bare =
      switch position {
      case .start: !Vocabulary.isReserved(text)
      case .statementName: Keywords.lookup(Array(text.utf8), 0..<text.utf8.count) == nil
      case .pathStep: true
      case .value: false
      case .callee:
        !Vocabulary.isReserved(text) || TextOperator(rawValue: text)?.isFunction == true
      }
    return bare ? text : quote(text, delimiter: "`")
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
        guard CharacterClass.table[Int(scalar.value)].contains(.identifierPart) else {
          return false
        }
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

extension Name {
  /// `text` as a statement or filter writes the name at `position`: bare where the parser
  /// reads it back as the same name, in backticks otherwise (`` `Province / Territory` ``):
  /// what completions offer.
  package static func written(_ text: String, statement: Bool = false, step: Bool = false)
    -> String
  {
    Quoting.name(text, at: step ? .pathStep : statement ? .statementName : .start)
  }

  /// The name a backticked token spells, its backticks and escapes removed.
  package static func unquoted(_ token: String) -> String {
    var ignored: [LiteralDecoder.Problem] = []
    let bytes = Array(token.utf8)
    return LiteralDecoder.unquote(bytes, 0..<bytes.count, problems: &ignored)
  }
}
