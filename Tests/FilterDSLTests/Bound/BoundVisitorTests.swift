import Testing

@testable import FilterDSL

/// Visitors over the bound tree: an embedder's back end in a few lines.
@Suite struct BoundVisitorTests {
  /// A toy back end: a filter as a MongoDB-like query document, or nil when it uses
  /// something the target cannot express.
  struct MongoQuery: BoundVisitor {
    mutating func combine(_ node: BoundExpr, _ children: [String?]) -> String? { nil }

    mutating func visitLogical(_ op: LogicalOperator, _ operands: [BoundExpr], in node: BoundExpr)
      -> String?
    {
      var parts: [String] = []
      for operand in operands {
        guard let part = operand.accept(&self) else { return nil }
        parts.append(part)
      }
      return "{\"$\(op == .and ? "and" : "or")\": [\(parts.joined(separator: ", "))]}"
    }

    mutating func visitPredicate(
      _ subject: BoundExpr, _ condition: BoundCondition, in node: BoundExpr
    ) -> String? {
      guard case .field(let field) = subject.kind,
        case .compare(let op, let operand, let options) = condition.kind, options.isEmpty,
        let value = operand.constant
      else { return nil }
      let name: String =
        switch op {
        case .equal: "eq"
        case .notEqual: "ne"
        case .less: "lt"
        case .lessOrEqual: "lte"
        case .greater: "gt"
        case .greaterOrEqual: "gte"
        }
      return "{\"\(field.path.dotted)\": {\"$\(name)\": \(value)}}"
    }
  }

  static func bound(_ text: String) throws -> BoundExpr {
    let expr = try Parser.parseFilter(SourceText(text)).get()
    return try Checker.check(expr, schema: PhoneSchema.schema).get(SourceText(text))
  }

  @Test func anEmbedderTranslatesWhatItCan() throws {
    var mongo = MongoQuery()
    #expect(
      try BoundVisitorTests.bound("price < 500 + 500 and camera.megapixels >= 48").accept(&mongo)
        == "{\"$and\": [{\"price\": {\"$lt\": 1000}}, {\"camera.megapixels\": {\"$gte\": 48}}]}")
    #expect(try BoundVisitorTests.bound("model contains Pro").accept(&mongo) == nil)
  }

  /// The default traversal visits every node of the record's scope.
  struct NodeCounter: BoundVisitor {
    mutating func combine(_ node: BoundExpr, _ children: [Int]) -> Int {
      children.reduce(1, +)
    }
  }

  @Test func theDefaultTraversalCombinesChildren() throws {
    var counter = NodeCounter()
    // and, (predicate, price, 1), (predicate, len, tags, 2): 8 nodes.
    #expect(try BoundVisitorTests.bound("price > 1 and len(tags) > 2").accept(&counter) == 8)
    // The scoped filter is not entered: quantified, its subject.
    #expect(try BoundVisitorTests.bound("any accessories (price > 1)").accept(&counter) == 2)
  }

  @Test func fieldsAreCollectedOnceInOrder() throws {
    let bound = try BoundVisitorTests.bound(
      "exists camera.zoom and price > 1 and (price < 9 or any accessories (price > 2))")
    #expect(bound.fields.map(\.path.dotted) == ["camera.zoom", "price", "accessories"])
  }
}
