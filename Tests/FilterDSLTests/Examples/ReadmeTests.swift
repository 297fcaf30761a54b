import FilterDSL
import Testing

// The embedding example of the README, verbatim, so that it keeps compiling and stays true.

/// Every field a filter mentions.
func fields(_ expr: Expr) -> Set<String> {
  switch expr.kind {
  case .field(let path): [path.dotted]
  case .exists(let path): [path.dotted]
  case .literal, .parameter: []
  case .list(let items), .logical(_, let items), .call(_, let items):
    items.reduce([]) { $0.union(fields($1)) }
  case .range(let a, let b, _), .arithmetic(_, let a, let b):
    fields(a).union(fields(b))
  case .negate(let e), .not(let e): fields(e)
  case .predicate(let subject, let condition), .quantified(_, let subject, let condition):
    fields(subject).union(fields(condition))
  }
}

func fields(_ condition: Condition) -> Set<String> {
  switch condition.kind {
  case .compare(_, let operand, _), .text(_, let operand, _, _), .member(let operand, _, _):
    fields(operand)
  case .between(let lower, let upper, _, _): fields(lower).union(fields(upper))
  case .isNull: []
  }
}

@Suite struct ReadmeTests {
  @Test func fieldsExample() throws {
    #expect(
      fields(try Parser.parseFilter("price * 2 < `budget` and any tags == 5G").get()) == [
        "price", "budget", "tags",
      ])
  }

  @Test func parseExample() throws {
    let result = Parser.parseFilter(#"color in (Starlight, "Space Black") and diskSpace >= 256"#)
    #expect(!result.hasErrors)
    #expect(
      result.value?.description == #"color in ("Starlight", "Space Black") and diskSpace >= 256"#)
    #expect(
      result.value?.debugDescription
        == #"(and (in color (list "Starlight" "Space Black")) (>= diskSpace 256))"#)
    let query = try Parser.parseQuery("price < 1000 order by price desc limit 5").get()
    #expect(query.limit == Expr(.literal(.int(5))))
  }
}
