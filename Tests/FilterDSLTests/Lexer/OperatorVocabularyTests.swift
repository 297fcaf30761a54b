import Testing

@testable import FilterDSL

/// The operators carry their own tokens and spellings: the lexer, the parser, the printer
/// and the function table take them from there, so every operator is read and written back
/// the same way.
@Suite struct OperatorVocabularyTests {
  @Test(arguments: TextOperator.allCases)
  func aTextOperatorIsLexedParsedAndPrintedBack(op: TextOperator) throws {
    let tokens = Lexer.tokenize(SourceText("model \(op.spelling) \"x\"")).tokens
    #expect(tokens.map(\.kind).dropLast() == [.identifier, op.token, .string])
    #expect(TextOperator(token: op.token) == op)
    // Case does not matter, as for every keyword.
    #expect(
      Keywords.lookup(Array(op.spelling.uppercased().utf8), 0..<op.spelling.utf8.count) == op.token)
    for negated in [false, true] {
      let text = "model \(negated ? "not " : "")\(op.spelling)[c] \"x\""
      let filter = try Parser.parseFilter(text).get()
      guard case .predicate(_, let condition) = filter.kind,
        case .text(let parsed, _, let options, let parsedNegation) = condition.kind
      else {
        Issue.record("\(text) parsed as \(filter)")
        continue
      }
      #expect(parsed == op && options == .caseInsensitive && parsedNegation == negated)
      #expect(try Parser.parseFilter(filter.description).get() == filter)
    }
  }

  @Test(arguments: TextOperator.allCases)
  func aTextOperatorThatIsAFunctionIsCalledByItsName(op: TextOperator) throws {
    let parsed = Parser.parseFilter("\(op.spelling)(model, \"x\")")
    #expect(parsed.hasErrors == !op.isFunction)
    #expect(BuiltinFunctions.all.contains { $0.name == op.spelling } == op.isFunction)
    if op.isFunction, let filter = parsed.value {
      #expect(try Parser.parseFilter(filter.description).get() == filter)
    }
  }

  @Test(arguments: ComparisonOperator.allCases)
  func aComparisonIsReadFromItsToken(op: ComparisonOperator) throws {
    #expect(ComparisonOperator(token: op.token) == op)
    let filter = try Parser.parseFilter("price \(op.rawValue) 5").get()
    guard case .predicate(_, let condition) = filter.kind,
      case .compare(let parsed, _, _) = condition.kind
    else {
      Issue.record("parsed as \(filter)")
      return
    }
    #expect(parsed == op)
  }

  @Test func notSaysWhatMayFollowIt() {
    let parsed = Parser.parseFilter("price not > 5")
    let message = parsed.diagnostics.first?.message ?? ""
    for op in TextOperator.allCases { #expect(message.contains("'\(op.spelling)'")) }
  }

  @Test func theAliasIsStillRead() throws {
    #expect(
      try Parser.parseFilter("model beginsWith iP").get()
        == Parser.parseFilter("model startsWith iP").get())
  }
}

extension OperatorVocabularyTests {
  /// Every token that is an operator is the token of that operator, and back.
  @Test func everyOperatorTokenIsItsOperatorsToken() {
    for kind in TokenKind.allCases {
      switch kind.operatorToken {
      case .comparison(let op): #expect(op.token == kind)
      case .text(let op): #expect(op.token == kind)
      case nil:
        #expect(!ComparisonOperator.allCases.contains { $0.token == kind }, "\(kind)")
        #expect(!TextOperator.allCases.contains { $0.token == kind }, "\(kind)")
      }
    }
  }
}
