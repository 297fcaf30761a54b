import Testing

@testable import FilterDSL

/// The bitwise operators `& | ^ ~ << >>` on integers, and SQL's spellings of calls (`cast`,
/// `iif`, `case`), through the reference evaluator and the compiled engine.
@Suite struct BitwiseTests {
  /// Shifts give what SQLite gives (each row checked with sqlite3 3.40: `select x << k, x >> k`):
  /// bits shifted out are lost, 64 or more shifts every bit out (-1 for a negative number
  /// shifted right), a negative amount shifts the other way, and no amount traps.
  @Test(arguments: [
    (Int64(5), Int64(-1), Int64(2), Int64(10)),
    (-8, -65, -1, 0),
    (.min, .min, -1, 0),
    (.max, 1, -2, 4_611_686_018_427_387_903),
    (-1, 64, 0, -1),
    (1, 63, .min, 0),
    (.min, 63, 0, -1),
    (3, .max, 0, 0),
    (.max, -63, 0, .min),
  ])
  func shiftsAsSQLite(x: Int64, k: Int64, left: Int64, right: Int64) {
    #expect(Arithmetic.int(.shiftLeft, x, k) == .success(left), "\(x) << \(k)")
    #expect(Arithmetic.int(.shiftRight, x, k) == .success(right), "\(x) >> \(k)")
  }

  /// `& | ^` never overflow; SQLite's `(a | b) - (a & b)` (how the SQL writer spells `^`
  /// there) is `a ^ b` for any two integers.
  @Test func andOrXorNeverFault() {
    let edges: [Int64] = [0, 1, -1, 5, -8, .max, .min, 0x5555_5555_5555_5555]
    for a in edges {
      for b in edges {
        #expect(Arithmetic.int(.bitAnd, a, b) == .success(a & b))
        #expect(Arithmetic.int(.bitOr, a, b) == .success(a | b))
        #expect(Arithmetic.int(.bitXor, a, b) == .success(a ^ b))
        let (difference, overflow) = (a | b).subtractingReportingOverflow(a & b)
        #expect(!overflow && difference == a ^ b, "\(a), \(b)")
      }
    }
  }

  /// On the record of ``ReferenceEvaluatorTests`` (price 999, memory 6, diskSpace 256, scores
  /// 4, 5 and null, no `updated`).
  @Test(arguments: [
    ("bit-1", "price & 7 == 7 and price | 1024 == 2023 and price ^ price == 0", Truth.true),
    ("bit-2", "~price == -1000 and ~~price == `price` and -~price == 1000", .true),
    ("bit-3", "diskSpace >> 8 == 1 and 1 << memory == 64 and diskSpace << -8 == 1", .true),
    ("bit-4", "price << 64 == 0 and -price >> 64 == -1 and price << $budget == 0", .true),
    ("bit-5", "any scores & 1 == 1 and all scores | 4 >= 4", .unknown),
    ("bit-6", "any scores & 1 == 1 and any scores ^ 4 == 1", .true),
    ("bit-7", "year(updated) & 1 == 1", .unknown),
    ("bit-8", "price & 1 + 2 == 3 and (price & 1) + 2 == 3", .true),
    // `one`: exactly one element passes; unknown while an element is unknown and fewer than
    // two pass (tags 5G and eSIM; scores 4, 5, null; accessories Case 49, Charger 19, Strap).
    ("one-1", "one tags == 5G and not one tags != x and not one tags == x", .true),
    ("one-2", "one scores == 4", .unknown),
    ("one-3", "not one scores >= 4", .true),
    ("one-4", "one accessories (name == Case) and not one accessories (len(name) > 0)", .true),
    ("one-5", "one accessories (price < 20)", .unknown),
    ("one-6", "one accessories.name == Case and one $colors == Gold", .true),
    // SQL's spellings.
    ("sql-1", #"iif(price > 500, "high", "low") == "high""#, .true),
    ("sql-2", "case when price > 2000 then 3 when price > 500 then 2 else 1 end == 2", .true),
    ("sql-3", #"case color when Gold then 1 when "Space Black" then 2 end == 2"#, .true),
    ("sql-4", "case when updated > 2020-01-01 then 1 else 2 end == 2", .true),
    ("sql-5", "case when price < 0 then 1 end is null", .true),
    ("sql-6", "case when price > 0 then 1 else price / 0 end == 1", .true),
    (
      "sql-7",
      #"cast(screenSize as integer) == 6 and cast(price as text) == "999" and cast("1.5" as real) == 1.5"#,
      .true
    ),
    ("sql-8", #"cast("2022-09-16" as date) == `released` and cast(1 as boolean)"#, .true),
  ])
  func truth(id: String, filter: String, expected: Truth) throws {
    try ReferenceEvaluatorTests.expectBothEngines(id, filter, expected) { $0.isEmpty }
  }

  @Test(arguments: [
    ("price & screenSize == 1", "cannot apply '&' to 'price' (an integer) and 'screenSize'"),
    ("price >> 1.5 == 1", "| '>>' works on integers: write int(x) for a number"),
    ("(inStock & inStock) == true", "| for 'and' write 'and' or '&&'"),
    ("(inStock | true) == true", "| for 'or' write 'or' or '||'"),
    (#"~model == "x""#, "cannot apply '^' to 'model' (text)"),
    (#"case when price then 1 end == 1"#, "if takes a condition first"),
    (#"case when inStock then 1 else "a" end == 1"#, "if gives one kind of value"),
    ("cast(camera as integer) == 1", "int takes"),
  ])
  func typeErrors(filter: String, message: String) {
    let diagnostics = CheckerTests.check(filter)
    #expect(diagnostics.count == 1, "\(filter): \(diagnostics)")
    #expect(diagnostics.first?.contains(message) == true, "\(filter): \(diagnostics)")
  }
}
