/// One factory per semantic diagnostic (FLT3xx): the wording of each message lives here.
extension Diagnostic {
  static func unknownField(
    _ name: String, in record: String?, suggestion: String?, fields: [String],
    at range: SourceRange
  ) -> Diagnostic {
    let place = record.map { " of \(quoted($0))" } ?? ""
    // Not "quote it": a name where a field belongs is a field on the left of an operator, and
    // quoting it there makes a constant that every record compares the same.
    let shown = fields.prefix(12).map { quoted($0) }.joined(separator: ", ")
    let help =
      suggestion.map { "did you mean \(quoted($0))?" }
      ?? (fields.isEmpty
        ? "the data has no fields"
        : "the fields are \(shown)\(fields.count > 12 ? ", ... (\(fields.count) in all)" : "")")
    return Diagnostic(
      .unknownField, at: range, message: "unknown field \(quoted(name))\(place)",
      label: "not a field of the data", help: help)
  }

  /// The help of an unknown field that the records of the list at `list` have.
  static func recordsInAList(_ name: String, _ list: String) -> String {
    "\(quoted(name)) is a field of the records in the list \(quoted(list)): to filter those "
      + "records, read them with --root \(list); to test this record's list, any \(list).\(Name.written(name, step: true))"
  }

  static func unknownParameter(_ name: String, suggestion: String?, at range: SourceRange)
    -> Diagnostic
  {
    Diagnostic(
      .unknownParameter, at: range, message: "unknown parameter \(quoted("$" + name))",
      help: suggestion.map { "did you mean '$\($0)'?" }
        ?? "give it a value: -p \(name)=VALUE on the command line, let \(name) = ... in a script")
  }

  static func unknownFunction(
    _ name: String, suggestion: String?, functions: [String], at range: SourceRange
  ) -> Diagnostic {
    let nearest = Suggestion.ranked(name, among: functions)
    let list =
      nearest.prefix(10).joined(separator: ", ")
      + (nearest.count > 10 ? ", ... (\(nearest.count) in all)" : "")
    let functionsAre = "the functions nearest to it are \(list)"
    return Diagnostic(
      .unknownFunction, at: range, message: "unknown function \(quoted(name))",
      help: suggestion.map { "did you mean '\($0)'? (\(functionsAre))" } ?? functionsAre)
  }

  static func listCalled(_ name: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .unknownFunction, at: range, message: "\(quoted(name)) is a list, not a function",
      help: "to test each of its records, put a space before '(': any \(name) (...)")
  }

  static func wrongArity(
    _ name: String, expected: ClosedRange<Int>, got: Int, at range: SourceRange
  ) -> Diagnostic {
    let count =
      expected.lowerBound == expected.upperBound
      ? "\(expected.lowerBound)" : "\(expected.lowerBound) to \(expected.upperBound)"
    let noun = expected.upperBound == 1 && expected.lowerBound == 1 ? "argument" : "arguments"
    return Diagnostic(
      .invalidArguments, at: range, message: "\(name) takes \(count) \(noun), not \(got)")
  }

  static func invalidArguments(_ message: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(.invalidArguments, at: range, message: message)
  }

  static func incomparable(_ left: String, _ right: String, at range: SourceRange, help: String?)
    -> Diagnostic
  {
    Diagnostic(
      .incomparable, at: range, message: "cannot compare \(left) with \(right)", help: help)
  }

  static func invalidOperand(_ message: String, at range: SourceRange, help: String? = nil)
    -> Diagnostic
  {
    Diagnostic(.invalidOperand, at: range, message: message, help: help)
  }

  /// `example` is the value compared without the quantifier (`dep_delay > 3`).
  /// `listField` names the list field that a bare word on the right of `in` spells as text
  /// (`"5G" in tags`).
  static func notAList(
    _ what: String, operation: String, example: String = "price > 3", listField: String? = nil,
    at range: SourceRange
  ) -> Diagnostic {
    let help =
      if let listField {
        "on the right of an operator a word is text; for the list field, write it in backticks: x in `\(listField)` (or \(listField) contains x)"
      } else if operation == "in" {
        "write the values in parentheses: x in (a, b), or a range: x in 1...5"
      } else {
        "compare the value itself: \(example)"
      }
    return Diagnostic(
      .notAList, at: range, message: "'\(operation)' needs a list, and \(what) is not one",
      help: help)
  }

  static func nullInList(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .nullInList, at: range, message: "null in an 'in' list never matches",
      help: "test for null separately: x is null or x in (...)")
  }

  static func emptyList(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .emptyList, at: range, message: "'in ()' matches nothing",
      help: "put the values to match in the parentheses")
  }

  static func notABoolean(_ what: String, at range: SourceRange, help: String?) -> Diagnostic {
    Diagnostic(
      .notABoolean, at: range, message: "\(what) is not true or false", help: help)
  }

  static func modifierOnNonText(_ modifier: String, what: String, at range: SourceRange)
    -> Diagnostic
  {
    Diagnostic(
      .modifierOnNonText, at: range,
      message: "\(modifier) only applies to text, and \(what) is not text",
      help: "remove \(modifier)")
  }

  static func unknownValue(
    _ value: String, field: String, suggestion: String?, at range: SourceRange
  ) -> Diagnostic {
    Diagnostic(
      .unknownValue, .warning, at: range,
      message: "no record has \(field) \(quoted(value))",
      help: suggestion.map { "did you mean \(quoted($0, mark: "\""))?" })
  }

  /// `tailnum == NA` where `NA` is read as null (the file's null marker).
  static func nullTextCompared(
    _ value: String, field: String, negated: Bool, at range: SourceRange
  ) -> Diagnostic {
    Diagnostic(
      .unknownValue, .warning, at: range,
      message:
        "no value of \(field) is \(quoted(value)): \(quoted(value)) is read as null in this file",
      help:
        "to find the records \(negated ? "with" : "without") a value, "
        + "write \(field) is \(negated ? "not " : "")null")
  }

  static func fieldWithoutValues(_ field: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .fieldWithoutValues, .warning, at: range,
      message: "\(quoted(field)) has no value in any record, so this is never true",
      help: "test it with 'is null' or 'exists', or check the field's name")
  }

  /// `example` is a comparison of one of the data's own fields (``Checker``'s
  /// `exampleComparison`).
  static func constantComparison(
    suggestion: String?, example: String = "price > 100", at range: SourceRange
  ) -> Diagnostic {
    Diagnostic(
      .constantComparison, .warning, at: range,
      message: "this comparison reads no field, so it is the same for every record",
      help: suggestion.map {
        "to read the field \(quoted($0)), write its name without quotes: \($0)"
      }
        ?? "put a field on one side, as in \(example)")
  }

  static func sqlWildcard(_ glob: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .sqlWildcard, .warning, at: range,
      message: "'like' patterns use * and ?, not SQL's % and _",
      label: "'%' matches only a '%' here",
      help: "write the pattern as \"\(glob)\"")
  }

  static func comparisonWithNull(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .comparisonWithNull, .warning, at: range, message: "a comparison with null is never true",
      help: "test for null with 'is null' or 'is not null'")
  }

  static func notARecord(_ name: String, what: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      .notARecord, at: range, message: "\(quoted(name)) has no fields: it is \(what)",
      help: what.hasPrefix("a list") ? "test its elements with any, all or none" : nil)
  }

  /// `pattern` as written: `(?i)` (a flag flt spells `matches[c]`) gets its own help.
  static func invalidPattern(_ error: RegexError, pattern: String, at range: SourceRange)
    -> Diagnostic
  {
    let flags = pattern.hasPrefix("(?i)") || pattern.hasPrefix("(?") && error.offset == 0
    return Diagnostic(
      .invalidPattern, at: range,
      message:
        "invalid regular expression: \(error.message) (at character \(error.offset + 1) of the pattern)",
      help: flags && pattern.hasPrefix("(?i)")
        ? "to ignore case, write matches[c] and leave out (?i): name matches[c] \"\(pattern.dropFirst(4))\""
        : "the syntax is: . [a-z] [^...] \\d \\w \\s ^ $ * + ? {m,n} | ( ) (?: ); see the README")
  }

  static func tooCostly(estimate: Int, limits: EvaluationLimits, at range: SourceRange)
    -> Diagnostic
  {
    Diagnostic(
      .tooCostly, at: range,
      message:
        "this filter may cost about \(estimate) units per record (for texts of \(limits.assumedTextBytes) bytes), over the limit of \(limits.maxCostPerRecord)",
      help:
        "this part costs the most: use a shorter pattern, fewer text tests, or test fewer list elements"
    )
  }
}
