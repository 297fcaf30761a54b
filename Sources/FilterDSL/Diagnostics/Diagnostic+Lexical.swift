/// One factory per lexical diagnostic (FLT1xx): the wording of each message lives here.
extension Diagnostic {
  static func unexpectedCharacter(_ character: String, at range: SourceRange) -> Diagnostic {
    let help: String? =
      switch character {
      case "{", "}", "]": "lists are written in parentheses: (a, b)"
      case "@": "parameters start with '$': $budget"
      case "^": "there is no '^' operator; write 'and', 'or', 'not'"
      case "\\": "a backslash only escapes characters inside quotes"
      default: nil
      }
    return Diagnostic(
      .unexpectedCharacter, at: range, message: "unexpected character \(quoted(character))",
      help: help)
  }

  static func typographicQuotes(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .unexpectedCharacter, at: range, message: "text in typographic quotes",
      label: "these are not straight quotes",
      help: #"write strings in straight quotes: "Space Black" or 'Space Black'"#)
  }

  static func misspelledOperator(_ written: String, meant: String, at range: SourceRange)
    -> Diagnostic
  {
    Diagnostic(
      .misspelledOperator, at: range, message: "\(quoted(written)) is not an operator",
      help: "did you mean '\(meant)'?")
  }

  static func leadingDot(_ text: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .invalidNumber, at: range, message: "a number cannot start with '.'",
      help: "write 0\(text)")
  }

  static func missingParameterName(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .missingName, at: range, message: "'$' must be followed by a parameter name",
      help: "write a parameter as $name, such as $budget")
  }

  static func emptyQuotedName(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .missingName, at: range, message: "empty field name",
      help: "write the field's name between the backticks: `screen size`")
  }

  static func squareBracket(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .invalidModifier, at: range, message: "unexpected '['",
      help:
        "lists are written in parentheses: (a, b); the string modifiers are [c], [d] and [cd], after an operator: contains[c]"
    )
  }

  static func unterminatedString(quote: UInt8, at range: SourceRange) -> Diagnostic {
    let q = String(UnicodeScalar(quote))
    let what = quote == UInt8(ascii: "`") ? "quoted name" : "string"
    return Diagnostic(
      .unterminatedString, at: range, message: "unterminated \(what)",
      label: "this \(q) has no closing \(q) on its line",
      help: "add a closing \(q); a line break inside text is written \\n")
  }

  static func numberOutOfRange(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .invalidNumber, at: range, message: "number is out of range",
      help: "numbers must lie within ±1.8e308")
  }

  static func integerTooLarge(_ text: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .integerTooLarge, at: range, message: "integer \(quoted(text)) does not fit in 64 bits",
      help:
        "integers lie between -9223372036854775808 and 9223372036854775807; for a larger approximate value write a decimal such as 1e19"
    )
  }

  static func malformedNumber(_ text: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .invalidNumber, at: range, message: "malformed number \(quoted(text))",
      help:
        #"numbers are written 256, 1_000, 6.1, 1e3 or 0xFF; quote text that starts with a digit: "5G""#
    )
  }

  static func fractionalDuration(_ text: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .invalidDuration, at: range, message: "durations take whole numbers, not \(quoted(text))",
      help: "combine units instead, as in 1h30m or 1500ms")
  }
}
