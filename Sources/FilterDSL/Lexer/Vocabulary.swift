/// The words of the language, in one place: the lexer, the parser, the printer, the REPL's
/// completion and help all read them from here.
public enum Vocabulary {
  /// Reserved keywords, matched without regard to case, as the documentation spells them, and
  /// the token each one is. `nil` is an alias of `null`, `beginsWith` of `startsWith`
  /// (NSPredicate's spelling).
  static let keywordTable: [(spelling: String, kind: TokenKind, isAlias: Bool)] =
    [
      ("and", .and, false), ("or", .or, false), ("not", .not, false), ("in", .in, false),
      ("between", .between, false), ("is", .is, false), ("null", .null, false),
      ("nil", .null, true), ("true", .true, false), ("false", .false, false),
    ] + TextOperator.allCases.map { ($0.spelling, $0.token, false) } + [
      ("beginsWith", TextOperator.startsWith.token, true),
      ("any", .any, false), ("all", .all, false), ("none", .none, false),
      ("exists", .exists, false),
    ]

  /// The reserved keywords (without aliases), as the documentation spells them.
  public static let keywords: [String] = keywordTable.filter { !$0.isAlias }.map(\.spelling)

  /// The words that begin a statement of a script.
  public static let statements = [
    "load", "use", "let", "count", "facets", "stats", "explain", "show", "set",
  ]

  /// The words of query clauses and statements after their first word: not reserved, given a
  /// meaning by their position.
  public static let clauses = [
    "order", "by", "asc", "desc", "nulls", "first", "last", "limit", "offset", "where", "as",
  ]

  /// The words that can follow a complete subject or filter: operators, then clauses. What
  /// "did you mean" chooses from after a subject.
  public static let operators =
    ["and", "or", "not", "in", "between", "is"] + TextOperator.allCases.map(\.spelling) + [
      "order", "limit", "offset",
    ]

  /// Whether `text` would be read as a keyword, or has a meaning by position (a field with such
  /// a name is printed in backticks).
  public static func isReserved(_ text: String) -> Bool {
    let lower = text.lowercased()
    return keywordTable.contains { $0.spelling.lowercased() == lower }
      || statements.contains(lower) || clauses.contains(lower)
  }
}
