import Testing

@testable import FilterDSL

/// Visitors over the bound tree (an embedder's back end is in `ReadmeBackEndTests`).
@Suite struct BoundVisitorTests {
  static func bound(_ text: String) throws -> BoundExpr {
    let expr = try Parser.parseFilter(SourceText(text)).get()
    return try Checker.check(expr, schema: PhoneSchema.schema).get(SourceText(text))
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
