/// The stable identifier of a kind of diagnostic, rendered as `FLT` and three digits.
///
/// Codes never change meaning once released: tools and tests may match on them.
/// `FLT1xx` are lexical (characters, literals), `FLT2xx` syntax, `FLT29x` limits,
/// `FLT3xx` semantic (the checker); `FLT4xx` data files (defined in FilterData), `FLT5xx`
/// scripts and sessions (defined in FilterSession).
public struct DiagnosticCode: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The number, such as `203` for `FLT203`.
  public let number: Int

  /// The code `FLT` followed by `number`.
  public init(_ number: Int) { self.number = number }

  /// `FLT301`.
  public var description: String { "FLT\(number)" }

  /// Codes order by number.
  public static func < (a: DiagnosticCode, b: DiagnosticCode) -> Bool { a.number < b.number }
}

extension DiagnosticCode {
  // Lexical: FLT1xx
  /// A character that cannot start any token.
  public static let unexpectedCharacter = DiagnosticCode(101)
  /// A string or quoted name that does not end before the end of its line.
  public static let unterminatedString = DiagnosticCode(102)
  /// An escape sequence that is not one of the known ones.
  public static let invalidEscape = DiagnosticCode(103)
  /// An integer that does not fit in 64 bits.
  public static let integerTooLarge = DiagnosticCode(104)
  /// A number that is malformed or out of range.
  public static let invalidNumber = DiagnosticCode(105)
  /// A date or date-time that is malformed or names a day or time that does not exist.
  public static let invalidDate = DiagnosticCode(106)
  /// A duration that is malformed or too long.
  public static let invalidDuration = DiagnosticCode(107)
  /// An operator spelled the wrong way round or in another language's spelling.
  public static let misspelledOperator = DiagnosticCode(108)
  /// `$` without a parameter name, or an empty quoted name.
  public static let missingName = DiagnosticCode(109)
  /// A `[...]` that is not a string modifier such as `[c]`.
  public static let invalidModifier = DiagnosticCode(110)

  // Syntax: FLT2xx
  /// Something else stands where a value, field or filter must be.
  public static let expectedExpression = DiagnosticCode(201)
  /// Tokens left over after a complete filter or statement.
  public static let unexpectedToken = DiagnosticCode(202)
  /// A `(` that is never closed.
  public static let unclosedParenthesis = DiagnosticCode(203)
  /// A `)` without a matching `(`.
  public static let unmatchedParenthesis = DiagnosticCode(204)
  /// A keyword where a value or field name must be.
  public static let keywordAsValue = DiagnosticCode(205)
  /// A field name is required here.
  public static let expectedFieldName = DiagnosticCode(206)
  /// A specific token is required here (`null` after `is`, `and` in `between`, `=` in `let`...).
  public static let expectedToken = DiagnosticCode(207)
  /// `a < b < c`.
  public static let chainedComparison = DiagnosticCode(208)
  /// A range (`1...5`) anywhere but after `in` or in `let`.
  public static let misplacedRange = DiagnosticCode(209)
  /// A string modifier (`[c]`) that does not follow an operator.
  public static let misplacedModifier = DiagnosticCode(210)
  /// The same query clause twice.
  public static let duplicateClause = DiagnosticCode(211)
  /// A call on something that is not a function name, or `.` after something that is not a field.
  public static let invalidPostfix = DiagnosticCode(212)

  // Limits: FLT29x
  /// Nesting deeper than the parser's depth limit.
  public static let nestingTooDeep = DiagnosticCode(290)
  /// More syntax nodes than the parser's node budget.
  public static let tooManyNodes = DiagnosticCode(291)
  /// Source text longer than the parser's limit.
  public static let sourceTooLong = DiagnosticCode(292)
  /// A list with more items than the parser's limit.
  public static let listTooLong = DiagnosticCode(293)
  /// A filter whose estimated cost per record is over its evaluation limit.
  public static let tooCostly = DiagnosticCode(294)
  /// More errors than are worth reading; the rest were not reported.
  public static let tooManyErrors = DiagnosticCode(299)

  // Semantic: FLT3xx
  /// A name that is not a field of the schema.
  public static let unknownField = DiagnosticCode(301)
  /// A `$parameter` that is not bound.
  public static let unknownParameter = DiagnosticCode(302)
  /// A call of a function that does not exist.
  public static let unknownFunction = DiagnosticCode(303)
  /// A call with the wrong number of arguments, or arguments of the wrong types.
  public static let invalidArguments = DiagnosticCode(304)
  /// Two values that cannot be compared (text with a number, a date with a duration...).
  public static let incomparable = DiagnosticCode(305)
  /// An operator applied to values it does not work on (`contains` on a number, text * 2...).
  public static let invalidOperand = DiagnosticCode(306)
  /// `any`, `all`, `none` or `in` on something that is not a list.
  public static let notAList = DiagnosticCode(307)
  /// `null` inside an `in` list, which never matches.
  public static let nullInList = DiagnosticCode(308)
  /// `in ()`, which matches nothing.
  public static let emptyList = DiagnosticCode(309)
  /// A value where true or false is needed (the whole filter, an operand of and/or/not).
  public static let notABoolean = DiagnosticCode(310)
  /// A string modifier (`[c]`, `[d]`) on values that are not text.
  public static let modifierOnNonText = DiagnosticCode(311)
  /// A warning: a value that none of a field's known values equals.
  public static let unknownValue = DiagnosticCode(312)
  /// A warning: a comparison with `null`, which is never true.
  public static let comparisonWithNull = DiagnosticCode(313)
  /// A path step into something that is not a record (`price.amount`).
  public static let notARecord = DiagnosticCode(314)
  /// A `matches` pattern that is not a valid regular expression of the supported syntax.
  public static let invalidPattern = DiagnosticCode(315)
  /// A warning: a test of a field that has no value in any record of the data (its type is
  /// unknown), which is never true.
  public static let fieldWithoutValues = DiagnosticCode(316)
  /// A warning: a comparison that reads no field (`"Price" > "1"`), the same for every record.
  public static let constantComparison = DiagnosticCode(317)
  /// A warning: a `like` pattern written with SQL's `%` wildcard, which flt's globs spell `*`.
  public static let sqlWildcard = DiagnosticCode(318)
  /// A `stats` column that is not one aggregate (`mean(price) - 1`), or two of one name.
  public static let invalidAggregate = DiagnosticCode(319)

  /// Every code of the language core (FLT1xx-3xx), for documentation and uniqueness tests.
  /// The modules that read data files (FLT4xx) and run sessions (FLT5xx) define theirs.
  public static let language: [DiagnosticCode] = [
    unexpectedCharacter, unterminatedString, invalidEscape, integerTooLarge, invalidNumber,
    invalidDate, invalidDuration, misspelledOperator, missingName, invalidModifier,
    expectedExpression, unexpectedToken, unclosedParenthesis, unmatchedParenthesis,
    keywordAsValue, expectedFieldName, expectedToken, chainedComparison, misplacedRange,
    misplacedModifier, duplicateClause, invalidPostfix,
    nestingTooDeep, tooManyNodes, sourceTooLong, listTooLong, tooManyErrors,
    unknownField, unknownParameter, unknownFunction, invalidArguments, incomparable,
    invalidOperand, notAList, nullInList, emptyList, notABoolean, modifierOnNonText,
    unknownValue, comparisonWithNull, notARecord, invalidPattern, fieldWithoutValues,
    constantComparison, sqlWildcard, invalidAggregate,
  ]
}
