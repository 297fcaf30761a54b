import Testing

@testable import FilterDSL

/// Parser tables: `(id, query, expected tree)`.
@Suite struct ParserTests {
  @Test(arguments: [
    // The design example, and bare words as values.
    (
      "parse-1.1", #"color in (Starlight, "Space Black") and diskSpace >= 256"#,
      #"(query (and (in color (list "Starlight" "Space Black")) (>= diskSpace 256)))"#
    ),
    ("parse-1.2", "color == Midnight", #"(query (== color "Midnight"))"#),
    ("parse-1.3", "color = Midnight", #"(query (== color "Midnight"))"#),
    ("parse-1.4", "tags contains 5G", #"(query (contains tags "5G"))"#),
    ("parse-1.5", "a == `b`", "(query (== a b))"),
    ("parse-1.6", "`screen size` >= 6.1", "(query (>= `screen size` 6.1))"),
    ("parse-1.7", "camera.megapixels > 12", "(query (> camera.megapixels 12))"),
    ("parse-1.8", "x == `camera`.megapixels", "(query (== x camera.megapixels))"),
    (
      "parse-1.9", "camera.`in`.x == 1 and camera.in == 2",
      "(query (and (== camera.in.x 1) (== camera.in 2)))"
    ),
    // Precedence: or < and < not < comparison < additive < multiplicative < unary < postfix.
    ("parse-2.1", "a or b and c", "(query (or a (and b c)))"),
    ("parse-2.2", "a and b or c and d", "(query (or (and a b) (and c d)))"),
    ("parse-2.3", "not a and b", "(query (and (not a) b))"),
    ("parse-2.4", "not a == 1", "(query (not (== a 1)))"),
    (
      "parse-2.5", "a + b * c == d - e / f % g",
      #"(query (== (+ a (* b c)) (- "d" (% (/ "e" "f") "g"))))"#
    ),
    ("parse-2.6", "-a * b", "(query (* (- a) b))"),
    ("parse-2.7", "a - b - c", "(query (- (- a b) c))"),
    ("parse-2.8", "a and b and c and d", "(query (and a b c d))"),
    ("parse-2.9", "a || b || c && !d", "(query (or a b (and c (not d))))"),
    ("parse-2.10", "(a or b) and c", "(query (and (or a b) c))"),
    ("parse-2.11", "a and (b and c)", "(query (and a (and b c)))"),
    ("parse-2.12", "!!a", "(query (not (not a)))"),
    ("parse-2.13", "AND_x == 1", "(query (== AND_x 1))"),
    // Bitwise operators: one level between comparison and additive, as in SQLite.
    ("parse-2.14", "a & b | c == d ^ e", #"(query (== (| (& a b) c) (^ "d" "e")))"#),
    ("parse-2.15", "flags & 1 << 2 + 1 == 8", "(query (== (<< (& flags 1) (+ 2 1)) 8))"),
    ("parse-2.16", "~a - -~1 > 0", "(query (> (- (^ a -1) (- (^ 1 -1))) 0))"),
    ("parse-2.17", "x >> 2 in (1, 2)", "(query (in (>> x 2) (list 1 2)))"),
    // SQL's spellings of calls.
    ("parse-2.18", "cast(price as integer) > 3", "(query (> (call int price) 3))"),
    ("parse-2.19", "CAST(code AS double precision) == 1.5", "(query (== (call double code) 1.5))"),
    (
      "parse-2.20", "case when a > 1 then x else y end == 2", "(query (== (call if (> a 1) x y) 2))"
    ),
    (
      "parse-2.21", "CASE WHEN a THEN 1 WHEN b THEN 2 END",
      "(query (call if a 1 (call if b 2 null)))"
    ),
    (
      "parse-2.22", "case color when Red then 1 when Blue then 2 else 0 end > 0",
      #"(query (> (call if (== color "Red") 1 (call if (== color "Blue") 2 0)) 0))"#
    ),
    ("parse-2.23", "iif(a, 1, 2) == 1", "(query (== (call iif a 1 2) 1))"),
    (
      "parse-2.28", "count(kids where age > 12) > 1",
      "(query (> (call `count` (filtered kids (> age 12))) 1))"
    ),
    ("parse-2.29", "(kids where a) is empty", "(query (is-empty (filtered kids a)))"),
    (
      "parse-2.25", "one tags == 5G and one $list > 3",
      #"(query (and (one tags (== "5G")) (one $list (> 3))))"#
    ),
    ("parse-2.26", "one kids (age < 5)", "(query (one kids (where (< age 5))))"),
    (
      "parse-2.27", "one == 1 or one order by one",
      "(query (or (== one 1) one) (order-by (asc one)))"
    ),
    (
      "parse-2.24", "case == 1 and case.x > 2 and x == case",
      #"(query (and (== case 1) (> case.x 2) (== x "case")))"#
    ),
    // Operators.
    (
      "parse-3.1", "a != 1 and b < 2 and c <= 3 and d > 4 and e >= 5",
      "(query (and (!= a 1) (< b 2) (<= c 3) (> d 4) (>= e 5)))"
    ),
    ("parse-3.2", "diskSpace in 256...1024", "(query (in diskSpace (... 256 1024)))"),
    ("parse-3.3", "price in 0..<500", "(query (in price (..< 0 500)))"),
    ("parse-3.4", "color not in (Red, Gold)", #"(query (not-in color (list "Red" "Gold")))"#),
    ("parse-3.5", "color in (Red)", #"(query (in color (list "Red")))"#),
    ("parse-3.6", "color in ()", "(query (in color (list)))"),
    ("parse-3.6b", "()", "(query (list))"),
    ("parse-3.7", "color in (Red, Gold,)", #"(query (in color (list "Red" "Gold")))"#),
    ("parse-3.8", "color in $colors", "(query (in color $colors))"),
    ("parse-3.9", "price between 100 and 500", "(query (between price 100 500))"),
    (
      "parse-3.10", "price not between 100 and 500 and x",
      "(query (and (not-between price 100 500) x))"
    ),
    ("parse-3.11", "name contains[c] pro", #"(query (contains[c] name "pro"))"#),
    ("parse-3.12", "name startsWith[cd] 'É'", #"(query (startsWith[cd] name "É"))"#),
    ("parse-3.13", "name not endsWith x", #"(query (not-endsWith name "x"))"#),
    ("parse-3.14", "model like 'iPhone*'", #"(query (like model "iPhone*"))"#),
    ("parse-3.15", #"model matches "iPhone 1[45]""#, #"(query (matches model "iPhone 1[45]"))"#),
    ("parse-3.16", "color ==[c] midnight", #"(query (==[c] color "midnight"))"#),
    ("parse-3.17", "color in[c] (a, b)", #"(query (in[c] color (list "a" "b")))"#),
    ("parse-3.18", "x is null or y is not null", "(query (or (is-null x) (is-not-null y)))"),
    ("parse-3.19", "exists camera.megapixels", "(query (exists camera.megapixels))"),
    ("parse-3.20", "any tags == 5G", #"(query (any tags (== "5G")))"#),
    (
      "parse-3.21", "all scores >= 3 and none tags in (a, b)",
      #"(query (and (all scores (>= 3)) (none tags (in (list "a" "b")))))"#
    ),
    ("parse-3.22", "not exists x", "(query (not (exists x)))"),
    // Values.
    ("parse-4.1", "lower(name) == pro", #"(query (== (call lower name) "pro"))"#),
    (
      "parse-4.2", "len(tags) > 2 and now() > d",
      #"(query (and (> (call len tags) 2) (> (call now) "d")))"#
    ),
    ("parse-4.3", "max(a, b, 3) == min(c)", "(query (== (call max a b 3) (call min c)))"),
    ("parse-4.4", "price <= $budget * 2", "(query (<= price (* $budget 2)))"),
    ("parse-4.5", "created > now() - 7d", "(query (> created (- (call now) 7d)))"),
    (
      "parse-4.6", "x == -3 and y == - 3 and z == -(3)",
      "(query (and (== x -3) (== y -3) (== z (- 3))))"
    ),
    ("parse-4.7", "x == (Red)", "(query (== x Red))"),
    ("parse-4.8", "flag == (price > 3)", "(query (== flag (> price 3)))"),
    ("parse-4.9", "x == (a, b)", #"(query (== x (list "a" "b")))"#),
    ("parse-4.10", "inStock", "(query inStock)"),
    ("parse-4.11", "true and not false", "(query (and true (not false)))"),
    (
      "parse-4.12", "d >= 2022-01-01 and d < 2023-01-01T00:00:00Z",
      "(query (and (>= d 2022-01-01) (< d 2023-01-01T00:00:00Z)))"
    ),
    (
      "parse-4.13", "x in (1, -2, 3.5, 2022-01-01, 7d, true, null, $p)",
      "(query (in x (list 1 -2 3.5 2022-01-01 7d true null $p)))"
    ),
    ("parse-4.14", "`count`(x) > 1", "(query (> (call `count` x) 1))"),
    // Query clauses.
    (
      "parse-5.1", "color == Gold order by price desc, model limit 5 offset 10",
      #"(query (== color "Gold") (order-by (desc price) (asc model)) (limit 5) (offset 10))"#
    ),
    ("parse-5.2", "order by price limit 5", "(query * (order-by (asc price)) (limit 5))"),
    ("parse-5.3", "limit 3", "(query * (limit 3))"),
    ("parse-5.4", "limit > 3", "(query (> `limit` 3))"),
    ("parse-5.5", "order == 1 order by order", "(query (== `order` 1) (order-by (asc `order`)))"),
    (
      "parse-5.6", "x order by a nulls first, b desc nulls last",
      "(query x (order-by (asc a nulls-first) (desc b nulls-last)))"
    ),
    ("parse-5.7", "x limit $n offset $m", "(query x (limit $n) (offset $m))"),
    ("parse-5.8", "x OFFSET 2 LIMIT 1", "(query x (limit 1) (offset 2))"),
    ("parse-5.9", "order by len(tags) desc", "(query * (order-by (desc (call len tags))))"),
    // Line breaks are spaces in a single filter.
    ("parse-6.1", "a\nand\nb", "(query (and a b))"),
  ])
  func trees(id: String, source: String, expected: String) {
    #expect(Parse.dump(source) == expected, "\(id)")
  }

  /// `(id, query, expected code, expected message)`.
  @Test(arguments: [
    ("parse-e1", "color == Space Black", 202, "unexpected 'Black' after a complete filter"),
    (
      "parse-e2", "color in (Space Black)", 203,
      "expected ',' or ')' after list item, found 'Black'"
    ),
    ("parse-e3", "(a or b", 203, "'(' is never closed"),
    ("parse-e4", "a or b)", 204, "unexpected ')' with no matching '('"),
    ("parse-e5", "color == none", 205, "'none' is a keyword, not a value"),
    ("parse-e6", "in == 3", 205, "'in' is a keyword, not a field name"),
    ("parse-e7", "and b", 205, "expected a filter before 'and'"),
    ("parse-e8", "a ==", 201, "expected a value after '==', found the end of the input"),
    ("parse-e9", "a and", 201, "expected a filter after 'and', found the end of the input"),
    ("parse-e10", "5G == x", 206, "'5G' is not a field name"),
    ("parse-e10b", "a in [1, 2]", 110, "unexpected '['"),
    (
      "parse-e10d", "any kids(age < 18)", 207,
      "expected a comparison after 'any' and its list, found the end of the input"
    ),
    ("parse-e10c", "tags[0 == 1", 207, "expected ']' to close the index after '0', found '=='"),
    ("parse-e11", "exists 3", 206, "expected a field name after 'exists', found '3'"),
    ("parse-e12", "a.3 == 1", 105, "a number cannot start with '.'"),
    ("parse-e13", "x is and", 207, "expected 'null', 'empty' or a value after 'is', found 'and'"),
    (
      "parse-e14", "x between 1, 5", 207,
      "expected 'and' between the bounds of 'between', found ','"
    ),
    (
      "parse-e15", "x not y", 207,
      "expected 'in', 'between', 'contains', 'startsWith', 'endsWith', 'like' or 'matches' after 'not', found 'y'"
    ),
    (
      "parse-e16", "any tags", 207,
      "expected a comparison after 'any' and its list, found the end of the input"
    ),
    ("parse-e17", "a < b < c", 208, "comparisons cannot be chained"),
    ("parse-e18", "x == 1...5", 209, "a range can only follow 'in'"),
    ("parse-e19", "x [c] == 1", 210, "a string modifier must follow an operator"),
    ("parse-e20", "x order by a limit 1 limit 2", 211, "'limit' is given twice"),
    ("parse-e21", "(a)(b)", 212, "only a function name can be called"),
    ("parse-e22", "host == example.com", 212, "'.' after the text 'example'"),
    ("parse-e23", "x order a", 207, "expected 'by' after 'order', found 'a'"),
    ("parse-e24", "x == 1; y == 2", 202, "unexpected ';' after a complete filter"),
    ("parse-e25", "name contain pro", 202, "unexpected 'contain' after a complete filter"),
    (
      "parse-e27", "x between 1 and", 201,
      "expected a value after 'and', found the end of the input"
    ),
    ("parse-e28", "f(a", 203, "'(' is never closed"),
    (
      "parse-e29", "x == 9223372036854775808", 104,
      "integer '9223372036854775808' does not fit in 64 bits"
    ),
    (
      "parse-e30", "x order by a nulls", 207,
      "expected 'first' or 'last' after 'nulls', found the end of the input"
    ),
    ("parse-e31", "cast(a)", 207, "expected 'as' and a type after 'cast(...', found ')'"),
    ("parse-e32", "cast(a as money)", 207, "expected a type after 'as', found 'money'"),
    ("parse-e33", "case when a 1 end", 207, "expected 'then' and a value after 'when', found '1'"),
    (
      "parse-e34", "case when a then 1", 207,
      "expected 'end' to close 'case' after '1', found the end of the input"
    ),
    (
      "parse-e35", "case x then 1 end", 207,
      "expected 'when' and a condition after 'x', found 'then'"
    ),
  ])
  func errors(id: String, source: String, code: Int, message: String) {
    let result = Parser.parseQuery(source)
    #expect(result.value == nil, "\(id)")
    #expect(result.diagnostics.first?.code == DiagnosticCode(code), "\(id)")
    #expect(result.diagnostics.first?.message == message, "\(id)")
  }

  @Test(arguments: [
    ("name contain pro", "did you mean 'contains'?"),
    (
      "any kids(age < 18)",
      "to test each record of 'kids', put a space before the parenthesis: any kids (...)"
    ),
    ("color == Space Black", #"to write text with spaces, quote it: "Space Black""#),
    ("color in (Space Black)", #"to write text with spaces, quote it: "Space Black""#),
    ("a == 1 b == 2", "did you forget 'and' or 'or' before 'b'?"),
    ("color == none", #"to compare with the text none, quote it: "none""#),
    ("a => 1", "did you mean '>='?"),
    ("x == 1 lmit 5", "did you mean 'limit'?"),
    (
      "a == 1 & b == 2",
      "'&' is bitwise and on integers, tighter than a comparison: for 'and' write 'and' or '&&'"
    ),
    (
      "cast(a as money)",
      "cast to integer, double, text, bool, date or datetime: cast(code as integer)"
    ),
  ])
  func helpfulHints(source: String, help: String) {
    #expect(Parser.parseQuery(source).diagnostics.first?.help == help, "\(source)")
  }

  @Test func rangesAreByteOffsets() throws {
    let expr = try Parser.parseFilter("price >= 256 and name == \"é\"").get()
    guard case .logical(_, let operands) = expr.kind,
      case .predicate(let subject, let condition) = operands[1].kind
    else {
      Issue.record("unexpected tree \(expr.debugDescription)")
      return
    }
    #expect(expr.range == SourceRange(start: 0, end: 29))
    #expect(operands[0].range == SourceRange(start: 0, end: 12))
    #expect(subject.range == SourceRange(start: 17, end: 21))
    #expect(condition.operatorRange == SourceRange(start: 22, end: 24))
  }

  @Test func equalityIgnoresRanges() {
    #expect(Parser.parseFilter("a==1").value == Parser.parseFilter("  a  ==  1 ").value)
    #expect(Parser.parseFilter("a==1").value != Parser.parseFilter("a==2").value)
    #expect(
      Parser.parseFilter("a==1").value?.hashValue == Parser.parseFilter(" a == 1").value?.hashValue)
  }

  @Test func getThrowsEveryDiagnostic() {
    #expect(throws: FilterError.self) { try Parser.parseFilter("a == ").get() }
    do {
      _ = try Parser.parseFilter("a == ").get()
    } catch {
      #expect(error.diagnostics.count == 1)
      #expect(error.description.contains("error[FLT201]"))
    }
  }
}
