import FilterDSL
import Testing

// The README's own-back-end example, verbatim, so that it keeps compiling and stays true.

/// A search service's own query type.
indirect enum SearchQuery: Equatable {
  case all([SearchQuery])
  case any([SearchQuery])
  case term(String, Value)
  case atLeast(String, Value)
}

/// A checked filter as a SearchQuery; nil for what the service cannot do.
struct ToSearchQuery: BoundVisitor {
  mutating func combine(_ node: BoundExpr, _ children: [SearchQuery?]) -> SearchQuery? { nil }

  mutating func visitLogical(_ op: LogicalOperator, _ operands: [BoundExpr], in node: BoundExpr)
    -> SearchQuery?
  {
    var parts: [SearchQuery] = []
    for operand in operands {
      guard let part = operand.accept(&self) else { return nil }
      parts.append(part)
    }
    return op == .and ? .all(parts) : .any(parts)
  }

  mutating func visitPredicate(
    _ subject: BoundExpr, _ condition: BoundCondition, in node: BoundExpr
  ) -> SearchQuery? {
    guard case .field(let field) = subject.kind else { return nil }
    let name = field.path.dotted
    switch condition.kind {
    case .compare(.equal, let value, let options) where options.isEmpty:
      return value.constant.map { .term(name, $0) }
    case .compare(.greaterOrEqual, let value, let options) where options.isEmpty:
      return value.constant.map { .atLeast(name, $0) }
    case .member(let list, let options, negated: false) where options.isEmpty:
      guard case .list(let values) = list.constantValue else { return nil }
      return .any(values.map { .term(name, $0) })
    default:
      return nil
    }
  }
}

@Suite struct ReadmeBackEndTests {
  @Test func searchQueryExample() {
    let env = FilterEnvironment(
      RecordType<(color: String, diskSpace: Int, model: String)>([
        .string("color") { $0.color }, .int("diskSpace") { $0.diskSpace },
        .string("model") { $0.model },
      ]))
    let checked = env.check(
      SourceText(#"color in (Starlight, "Space Black") and diskSpace >= 256"#))
    var translate = ToSearchQuery()
    let search = checked.tree?.filter?.accept(&translate)
    // .all([.any([.term("color", "Starlight"), .term("color", "Space Black")]),
    //       .atLeast("diskSpace", 256)])
    #expect(
      search
        == SearchQuery.all([
          .any([.term("color", .string("Starlight")), .term("color", .string("Space Black"))]),
          .atLeast("diskSpace", .int(256)),
        ]))
    let unsupported = env.check(SourceText("model contains Pro")).tree?.filter
    #expect(unsupported?.accept(&translate) == nil)
    // Constants arrive folded.
    let folded = env.check(SourceText("diskSpace >= 200 + 56")).tree?.filter
    #expect(folded?.accept(&translate) == .atLeast("diskSpace", .int(256)))
  }
}
