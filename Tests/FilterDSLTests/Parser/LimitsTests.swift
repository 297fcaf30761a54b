import TestSupport
import Testing

@testable import FilterDSL

/// No input can exhaust the stack or memory: every limit ends in a diagnostic.
@Suite struct LimitsTests {
  static let deepInputs: [(String, String)] = [
    (
      "parentheses",
      String(repeating: "(", count: 100_000) + "a" + String(repeating: ")", count: 100_000)
    ),
    ("unclosed parentheses", String(repeating: "(", count: 100_000)),
    ("not", String(repeating: "not ", count: 100_000) + "a"),
    ("bang", String(repeating: "!", count: 100_000) + "a"),
    ("minus", "x == " + String(repeating: "-", count: 100_000) + "a"),
    ("minus number", "x == " + String(repeating: "-", count: 100_000) + "1"),
    ("lists", "x in " + String(repeating: "(a, ", count: 100_000)),
    ("calls", String(repeating: "f(", count: 100_000)),
    ("arithmetic chain", "x == " + Array(repeating: "a", count: 100_000).joined(separator: " + ")),
    ("mixed", String(repeating: "not (-(", count: 30_000)),
  ]

  static func nestingError(_ text: String) -> Bool {
    let result = Parser.parseScript(SourceText(text))
    return result.diagnostics.contains { $0.code == .nestingTooDeep }
      && result.value?.statements.isEmpty == true
  }

  @Test(arguments: deepInputs.map(\.0))
  func deepNestingIsAnErrorOnTheMainThread(name: String) {
    let text = LimitsTests.deepInputs.first { $0.0 == name }?.1 ?? ""
    #expect(LimitsTests.nestingError(text), "\(name)")
  }

  @Test(arguments: deepInputs.map(\.0))
  func deepNestingIsAnErrorOnA512KiBThread(name: String) {
    let text = LimitsTests.deepInputs.first { $0.0 == name }?.1 ?? ""
    #expect(onSmallStack { LimitsTests.nestingError(text) }, "\(name)")
  }

  /// Inputs that nest exactly `depth` levels, one per way of nesting.
  static func deepestInputs(_ depth: Int) -> [String] {
    let half = depth / 2
    return [
      String(repeating: "(", count: depth) + "a" + String(repeating: ")", count: depth),
      String(repeating: "not ", count: depth - 1) + "a == 1",
      String(repeating: "f(", count: depth) + "a" + String(repeating: ")", count: depth),
      "x == " + Array(repeating: "a", count: depth).joined(separator: " * "),
      String(repeating: "(a and ", count: half) + "a" + String(repeating: ")", count: half),
      String(repeating: "x == (", count: half) + "a" + String(repeating: ")", count: half),
      String(repeating: "x between (", count: half) + "a"
        + String(repeating: ") and 1", count: half),
      "x in " + String(repeating: "(1, ", count: depth - 1) + "1"
        + String(repeating: ")", count: depth - 1),
      String(repeating: "any (", count: half) + "a" + String(repeating: ") == 1", count: half),
      String(repeating: "x not contains (", count: half) + "a"
        + String(repeating: ")", count: half),
      String(repeating: "f(a, ", count: depth) + "a" + String(repeating: ")", count: depth),
      String(repeating: "-(", count: half) + "a" + String(repeating: ")", count: half),
      String(repeating: "not (", count: half) + "a" + String(repeating: ")", count: half),
      "(x == " + String(repeating: "a + (", count: half - 1) + "a"
        + String(repeating: ")", count: half - 1) + ")",
    ]
  }

  /// `f(x)` and `f(x, y)`: the last argument, for deep calls that check.
  static let functions = FunctionRegistry.builtins.adding(
    FunctionDefinition(
      name: "f", arity: 1...2, resultType: { .success($0.last ?? .null) },
      evaluate: { arguments, _ in .success(arguments.last ?? .null) }))

  /// Two schemas for the deep inputs: the shapes of most of them check under one.
  static let schemas = [
    (Schema([.init("a", .bool), .init("x", .bool)]), [Value.bool(true), .bool(false)]),
    (Schema([.init("a", .int), .init("x", .int)]), [Value.int(1), .int(1)]),
  ]

  /// Parses, prints, reparses, dumps, checks and binds, compiles, evaluates (compiled and
  /// reference), hashes and frees `text`: every recursive pass. Returns nil when a pass
  /// disagrees, else whether the tree checked under one of ``schemas`` (and so was compiled).
  static func everyPass(_ text: String, _ limits: ParserLimits) -> Bool? {
    guard let expr = Parser.parseFilter(SourceText(text), limits: limits).value else {
      return nil
    }
    let reparsed = Parser.parseFilter(SourceText(expr.description), limits: limits).value
    _ = expr.debugDescription
    _ = Checker.check(expr, schema: PhoneSchema.schema)
    guard reparsed == expr, expr.hashValue == reparsed?.hashValue else { return nil }
    for (schema, record) in schemas {
      guard let bound = Checker.check(expr, schema: schema, functions: functions).tree else {
        continue
      }
      _ = bound.description
      _ = bound.fields
      let node = Compiler(recordType: RecordType.dynamic(schema)).node(bound)
      let bindings = Bindings(parameters: [], context: EvaluationContext())
      var run = EvaluationState(bindings: bindings)
      let compiled = withExtendedLifetime(bindings) { node.test(record, &run) }
      let (reference, _) = ReferenceEvaluator(schema: schema, functions: functions).evaluate(
        expr, on: record)
      return compiled == reference ? true : nil
    }
    return false
  }

  /// The deepest trees any limits accept go through every pass on a 512 KiB thread in a debug
  /// build: the later recursive passes rely on the depth limit.
  @Test(arguments: deepestInputs(ParserLimits.maximumDepth))
  func deepestAcceptedTreesAreSafeOnA512KiBThread(text: String) {
    #expect(onSmallStack { LimitsTests.everyPass(text, .default) != nil }, "\(text.prefix(30))")
    let tooDeep = "(" + text + ")"
    #expect(Parser.parseFilter(SourceText(tooDeep)).diagnostics.map(\.code) == [.nestingTooDeep])
  }

  /// The deep trees that type check (seven of the fourteen shapes, and deep arithmetic on a
  /// field) are bound, compiled and evaluated on the small stack too.
  @Test func deepestTreesThatCheckAreCompiledOnA512KiBThread() {
    let half = ParserLimits.maximumDepth / 2
    let arithmetic = [
      String(repeating: "-(", count: half) + "a" + String(repeating: ")", count: half) + " > 0",
      String(repeating: "(a * ", count: half) + "a" + String(repeating: ")", count: half)
        + " > 0",
    ]
    let compiled = onSmallStack {
      (LimitsTests.deepestInputs(ParserLimits.maximumDepth) + arithmetic).filter {
        LimitsTests.everyPass($0, .default) == true
      }.count
    }
    #expect(compiled == 9)
  }

  @Test func depthLimitIsExact() {
    let limits = ParserLimits(maxDepth: 10)
    let nested = { (n: Int) in
      String(repeating: "(", count: n) + "a" + String(repeating: ")", count: n)
    }
    #expect(Parser.parseFilter(SourceText(nested(10)), limits: limits).value != nil)
    #expect(
      Parser.parseFilter(SourceText(nested(11)), limits: limits).diagnostics.map(\.code) == [
        .nestingTooDeep
      ])
    #expect(ParserLimits(maxDepth: 1_000_000).effectiveMaxDepth == ParserLimits.maximumDepth)
    #expect(ParserLimits.default.maxDepth == ParserLimits.maximumDepth)
    #expect(ParserLimits(maxDepth: -5).effectiveMaxDepth == 1)
  }

  /// Flat chains do not nest: n-ary `and`/`or` nodes and long lists are fine however long.
  @Test func longFlatChainsAreFine() {
    let chain = Array(repeating: "a == 1", count: 100_000).joined(separator: " and ")
    let list = "x in (" + Array(repeating: "1", count: 50_000).joined(separator: ", ") + ")"
    for text in [chain, list] {
      let ok = onSmallStack { Parser.parseFilter(SourceText(text)).value?.description.count ?? 0 }
      #expect(ok == text.count)
    }
  }

  @Test func nodeBudget() {
    let text = Array(repeating: "a == 1", count: 100).joined(separator: " or ")
    let result = Parser.parseFilter(SourceText(text), limits: ParserLimits(maxNodes: 150))
    #expect(result.value == nil)
    #expect(result.diagnostics.map(\.code) == [.tooManyNodes])
  }

  @Test func listLength() {
    let text = "x in (" + Array(repeating: "1", count: 11).joined(separator: ",") + ")"
    let result = Parser.parseFilter(SourceText(text), limits: ParserLimits(maxListItems: 10))
    #expect(result.diagnostics.map(\.code) == [.listTooLong])
  }

  @Test func sourceLength() {
    let result = Parser.parseFilter(
      SourceText(String(repeating: "a", count: 17_000)), limits: .untrusted)
    #expect(result.diagnostics.map(\.code) == [.sourceTooLong])
    #expect(result.diagnostics.first?.message == "input is 17000 bytes; the limit is 16384")
  }

  @Test func fatalLimitStopsTheScript() {
    let text = String(repeating: "(", count: 200) + "\na ==\nb ==\n"
    let result = Parser.parseScript(SourceText(text))
    #expect(result.diagnostics.map(\.code) == [.nestingTooDeep])
  }
}
