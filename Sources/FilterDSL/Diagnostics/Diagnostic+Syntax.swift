/// One factory per syntax diagnostic (FLT2xx, FLT29x): the wording of each message lives here.
extension Diagnostic {
  static func expectedExpression(
    _ what: String, after: String?, found: String, at range: SourceRange
  ) -> Diagnostic {
    let context = after.map { " after \(quoted($0))" } ?? ""
    return Diagnostic(
      .expectedExpression, at: range, message: "expected \(what)\(context), found \(found)",
      help: what == "a value"
        ? #"a value is a number, a date, text ("Space Black", or a single word), true, false, null or $parameter"#
        : nil)
  }

  static func keywordAsValue(_ keyword: String, value: Bool, at range: SourceRange) -> Diagnostic {
    let lower = keyword.lowercased()
    if value {
      return Diagnostic(
        .keywordAsValue, at: range, message: "\(quoted(keyword)) is a keyword, not a value",
        help: "to compare with the text \(keyword), quote it: \"\(keyword)\"")
    }
    if lower == "and" || lower == "or" || lower == "&&" || lower == "||" {
      return Diagnostic(
        .keywordAsValue, at: range, message: "expected a filter before \(quoted(keyword))")
    }
    return Diagnostic(
      .keywordAsValue, at: range, message: "\(quoted(keyword)) is a keyword, not a field name",
      help: "to name a field \(keyword), write it in backticks: `\(keyword)`")
  }

  static func wordAsField(_ word: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .expectedFieldName, at: range, message: "\(quoted(word)) is not a field name",
      help: "field names start with a letter or '_'; write other names in backticks: `\(word)`")
  }

  static func expectedFieldName(after: String?, found: String, at range: SourceRange) -> Diagnostic
  {
    let context = after.map { " after \(quoted($0))" } ?? ""
    return Diagnostic(
      .expectedFieldName, at: range, message: "expected a field name\(context), found \(found)",
      help:
        "a field is written as a name (price), a path (camera.megapixels) or in backticks (`screen size`)"
    )
  }

  static func dotAfterBareWord(_ word: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .invalidPostfix, at: range, message: "'.' after the text \(quoted(word))",
      help:
        "quote text that has dots: \"\(word)....\"; on the right of an operator, a field path is written with backticks: `camera`.megapixels"
    )
  }

  static func invalidCall(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .invalidPostfix, at: range, message: "only a function name can be called",
      help: "functions are called by name: lower(name), len(tags)")
  }

  static func invalidFieldStep(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .invalidPostfix, at: range, message: "'.' can only follow a field name",
      help: "write a nested field as camera.megapixels")
  }

  /// `call` is the name of a call written as the list (`any children(age < 18)`), which was
  /// probably meant as a filter on its records.
  static func expectedCondition(
    quantifier: String, found: String, at range: SourceRange, call: String? = nil
  ) -> Diagnostic {
    let q = quantifier.lowercased()
    return Diagnostic(
      .expectedToken, at: range,
      message: "expected a comparison after '\(q)' and its list, found \(found)",
      help: call.map {
        "to test each record of '\($0)', put a space before the parenthesis: \(q) \($0) (...)"
      } ?? "\(q) tests each element of a list: \(q) tags == \"5G\"")
  }

  /// `bitwise` is the `&` or `|` between the comparisons (`a == 1 & b == 2`), if any.
  static func chainedComparison(at range: SourceRange, bitwise: ArithmeticOperator? = nil)
    -> Diagnostic
  {
    let help =
      switch bitwise {
      case .bitAnd:
        "'&' is bitwise and on integers, tighter than a comparison: for 'and' write 'and' or '&&'"
      case .bitOr:
        "'|' is bitwise or on integers, tighter than a comparison: for 'or' write 'or' or '||'"
      default: "write a < b and b < c, or use between: b between a and c"
      }
    return Diagnostic(
      .chainedComparison, at: range, message: "comparisons cannot be chained", help: help)
  }

  static func misplacedRange(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .misplacedRange, at: range, message: "a range can only follow 'in'",
      help: "write price in 100...500, or price between 100 and 500")
  }

  /// What may follow `not`: `'in', 'between', 'contains', ... or 'matches'`.
  private static let afterNot: String = {
    let words = (["in", "between"] + TextOperator.allCases.map(\.spelling)).map { "'\($0)'" }
    return words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "")
  }()

  static func expectedAfterNot(found: String, at range: SourceRange, not: SourceRange) -> Diagnostic
  {
    Diagnostic(
      .expectedToken, at: range,
      message:
        "expected \(afterNot) after 'not', found \(found)",
      help: "to negate a whole test, put 'not' first: not (price > 500)")
  }

  static func expectedNull(found: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .expectedToken, at: range,
      message: "expected 'null', 'empty' or a value after 'is', found \(found)",
      help: "'is' tests for null (is null), emptiness (is empty) or a value, null included (is 3)")
  }

  static func misplacedModifier(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .misplacedModifier, at: range, message: "a string modifier must follow an operator",
      help: "write it right after the operator: name contains[c] \"pro\"")
  }

  static func expectedBetweenAnd(found: String, at range: SourceRange, between: SourceRange)
    -> Diagnostic
  {
    Diagnostic(
      .expectedToken, at: range,
      message: "expected 'and' between the bounds of 'between', found \(found)",
      notes: [Note("'between' is here", at: between)], help: "write price between 100 and 500")
  }

  /// The help for words that belong together as one text value: quote them.
  static func quoteHint(_ phrase: String) -> String {
    "to write text with spaces, quote it: \"\(phrase)\""
  }

  static func expectedClosing(
    after item: String?, found: String, at range: SourceRange, open: SourceRange,
    unquoted phrase: String?
  ) -> Diagnostic {
    let expected = item.map { "',' or ')' after \($0)" } ?? "')'"
    var help: String? = nil
    if let phrase {
      help = quoteHint(phrase)
    } else if item != nil {
      help = "separate items with commas: (a, b)"
    }
    return Diagnostic(
      .unclosedParenthesis, at: range, message: "expected \(expected), found \(found)",
      notes: [Note("to close this '('", at: open)], help: help)
  }

  static func unclosedParenthesis(at open: SourceRange, expected: SourceRange) -> Diagnostic {
    Diagnostic(
      .unclosedParenthesis, at: open, message: "'(' is never closed",
      label: "this '(' has no matching ')'", help: "add ')' where the parenthesized part ends")
  }

  static func unmatchedParenthesis(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .unmatchedParenthesis, at: range, message: "unexpected ')' with no matching '('",
      help: "remove it, or add the '(' it should close")
  }

  static func unexpectedToken(_ found: String, at range: SourceRange, help: String?) -> Diagnostic {
    Diagnostic(
      .unexpectedToken, at: range, message: "unexpected \(found) after a complete filter",
      help: help)
  }

  static func expectedToken(_ what: String, after: String, found: String, at range: SourceRange)
    -> Diagnostic
  {
    Diagnostic(
      .expectedToken, at: range, message: "expected \(what) after \(quoted(after)), found \(found)")
  }

  static func castType(found: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .expectedToken, at: range, message: "expected a type after 'as', found \(found)",
      help: "cast to integer, double, text, bool, date or datetime: cast(code as integer)")
  }

  static func expectedPath(found: String, at range: SourceRange, bare: Bool) -> Diagnostic {
    Diagnostic(
      .expectedToken, at: range,
      message: "expected a file path in quotes after 'load', found \(found)",
      help: bare ? "quote the path: load \"phones.json\"" : "write load \"phones.json\"")
  }

  static func duplicateClause(_ clause: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .duplicateClause, at: range, message: "'\(clause)' is given twice",
      help: "keep one '\(clause)' clause")
  }

  // MARK: Limits

  static func sourceTooLong(_ length: Int, limit: Int) -> Diagnostic {
    Diagnostic(
      .sourceTooLong, at: .empty(at: 0), message: "input is \(length) bytes; the limit is \(limit)",
      help: "shorten the input, or raise ParserLimits.maxSourceBytes")
  }

  static func nestingTooDeep(limit: Int, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .nestingTooDeep, at: range, message: "nesting is deeper than \(limit) levels",
      help: "flatten the filter: a and b and c needs no parentheses")
  }

  static func tooManyNodes(limit: Int, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .tooManyNodes, at: range, message: "input has more than \(limit) syntax nodes",
      help: "split it up, or raise ParserLimits.maxNodes")
  }

  static func listTooLong(limit: Int, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .listTooLong, at: range, message: "list has more than \(limit) items",
      help: "use a $parameter bound to the list, or raise ParserLimits.maxListItems")
  }

  static func tooManyErrors(limit: Int, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .tooManyErrors, at: range, message: "too many errors (more than \(limit)); stopped here")
  }
}
