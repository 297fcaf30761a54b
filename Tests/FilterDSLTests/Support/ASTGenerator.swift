import TestSupport

@testable import FilterDSL

/// Random trees within the grammar's shapes, for the round-trip property. Names and text are
/// drawn from pools full of awkward cases: keywords, spaces, quotes, backslashes, Unicode.
struct ASTGenerator {
  var rng: SplitMix64

  init(seed: UInt64) { rng = SplitMix64(seed: seed) }

  static let names = [
    "color", "price", "diskSpace", "camera", "megapixels", "tags", "in", "and", "order", "limit",
    "count", "load", "desc", "nulls", "screen size", "a`b", "back\\slash", "naïve", "Größe",
    "日本", "5G", "x.y", "line\nbreak", "_private", "ALL", "null", "True", "emoji🙂", "tab\there",
  ]
  static let strings = [
    "", "Starlight", "Space Black", "say \"hi\"", "it's", "back\\slash", "new\nline", "tab\t",
    "naïve café", "日本語", "🙂👍🏽", "\u{0}\u{1B}[31m", "*pro?", "(a, b)", "#not a comment",
    "`tick`", "and", "\u{301}combining",
  ]
  static let parameters = ["budget", "colors", "min_price", "x1", "Ünïcode"]
  static let functions = ["lower", "upper", "len", "abs", "now", "count", "in", "my func"]

  // MARK: Expressions

  /// Any filter-level expression.
  mutating func filter(_ depth: Int) -> Expr {
    if depth <= 0 { return leaf() }
    switch rng.int(0...9) {
    case 0:
      let op: LogicalOperator = rng.chance(0.5) ? .and : .or
      return Expr(.logical(op, (0..<rng.int(2...4)).map { _ in filter(depth - 1) }))
    case 1:
      return Expr(.not(filter(depth - 1)))
    case 2, 3, 4:
      return Expr(.predicate(filter(depth - 1), condition(depth - 1)))
    case 5:
      if rng.chance(0.3) {
        // A filter on the fields of each element of a list of records.
        return Expr(
          .quantified(
            rng.pick(Quantifier.allCases), Expr(.field(path())),
            Condition(.satisfies(filter(depth - 1)))))
      }
      return Expr(
        .quantified(rng.pick(Quantifier.allCases), filter(depth - 1), condition(depth - 1)))
    case 6:
      return Expr(.exists(path()))
    default:
      return value(depth)
    }
  }

  /// An expression at arithmetic level or tighter (no ranges).
  mutating func value(_ depth: Int) -> Expr {
    if depth <= 0 { return leaf() }
    switch rng.int(0...7) {
    case 0, 1:
      return Expr(
        .arithmetic(rng.pick(ArithmeticOperator.allCases), filter(depth - 1), filter(depth - 1)))
    case 2:
      return Expr(.negate(filter(depth - 1)))
    case 3:
      let name = rng.pick(ASTGenerator.functions)
      return Expr(.call(Name(name), (0..<rng.int(0...3)).map { _ in filter(depth - 1) }))
    case 4:
      return Expr(.list((0..<rng.int(0...3)).map { _ in filter(depth - 1) }))
    default:
      return leaf()
    }
  }

  mutating func leaf() -> Expr {
    switch rng.int(0...3) {
    case 0: Expr(.field(path()))
    case 1: Expr(.parameter(Name(rng.pick(ASTGenerator.parameters))))
    default: Expr(.literal(literal()))
    }
  }

  mutating func path() -> FieldPath {
    FieldPath((0..<rng.int(1...3)).map { _ in Name(rng.pick(ASTGenerator.names)) })
  }

  mutating func literal() -> Literal {
    switch rng.int(0...9) {
    case 0: return .null
    case 1: return .bool(rng.chance(0.5))
    case 2:
      return .int(rng.pick([0, 1, -1, 256, Int64.max, Int64.min, Int64(bitPattern: rng.next())]))
    case 3 where rng.chance(0.4):
      // An exact decimal: its scale kept, up to 38 digits.
      let significand = Int128(Int64(bitPattern: rng.next())) * Int128(rng.int(1...1000))
      return .decimal(
        ExactDecimal(significand: significand, scale: rng.int(0...20)) ?? ExactDecimal(0))
    case 3:
      let special: [Double] = [
        0, -0.0, 6.1, -2.5, 1e300, -1e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
      ]
      let random = Double(bitPattern: rng.next())
      return .double(random.isFinite ? rng.pick(special + [random]) : rng.pick(special))
    case 4:
      return .date(CalendarDate(daysSinceEpoch: Int64(rng.int(-719_528...2_932_896))))
    case 5:
      let seconds = Int64(rng.int(-62_167_219_200...253_402_300_799))
      return .dateTime(
        Instant(
          seconds: seconds,
          nanoseconds: Int32(rng.pick([0, 1, 500_000_000, rng.int(0...999_999_999)]))))
    case 6:
      let nanos = rng.pick([
        0, 1, -1, 604_800_000_000_000, Int64.max, -Int64.max,
        Int64(rng.int(-1_000_000_000_000...1_000_000_000_000)),
      ])
      return .duration(TimeSpan(nanoseconds: nanos))
    case 7 where rng.chance(0.3):
      let nanos = rng.pick([
        0, 1, 86_400_000_000_000, 86_399_999_999_999, 79_200_000_000_000,
        Int64(rng.int(0...86_399_999_999_999)),
      ])
      return .time(TimeOfDay(nanosecondsSinceMidnight: nanos) ?? TimeOfDay(wrapping: 0))
    default:
      return .string(rng.pick(ASTGenerator.strings))
    }
  }

  mutating func condition(_ depth: Int) -> Condition {
    let options = StringOptions(rawValue: UInt8(rng.int(0...3)))
    switch rng.int(0...7) {
    case 0, 1:
      return Condition(.compare(rng.pick(ComparisonOperator.allCases), filter(depth), options))
    case 6:
      // `x is null` is the null test, never `is` with a null operand.
      let operand = filter(depth)
      if case .literal(.null) = operand.kind { return Condition(.isNull(negated: false)) }
      return Condition(.same(operand, negated: rng.chance(0.5)))
    case 7:
      return Condition(.isEmpty(negated: rng.chance(0.5)))
    case 2:
      return Condition(
        .text(rng.pick(TextOperator.allCases), filter(depth), options, negated: rng.chance(0.3)))
    case 3:
      return Condition(.member(memberOperand(depth), options, negated: rng.chance(0.3)))
    case 4:
      return Condition(.between(filter(depth), filter(depth), options, negated: rng.chance(0.3)))
    default:
      return Condition(.isNull(negated: rng.chance(0.5)))
    }
  }

  /// The operand of `in`: a list, a range, or an expression that does not start with `(`
  /// (after `in`, a parenthesis always opens a list).
  mutating func memberOperand(_ depth: Int) -> Expr {
    switch rng.int(0...3) {
    case 0: return Expr(.list((0..<rng.int(0...4)).map { _ in filter(depth - 1) }))
    case 1: return Expr(.range(leaf(), leaf(), rng.pick(RangeKind.allCases)))
    case 2: return leaf()
    default:
      return Expr(.arithmetic(rng.pick(ArithmeticOperator.allCases), leaf(), filter(depth - 1)))
    }
  }

  // MARK: Statements

  mutating func statement(_ depth: Int) -> Stmt {
    switch rng.int(0...9) {
    case 0:
      return Stmt(
        .load(
          Name(rng.pick(ASTGenerator.strings)),
          alias: rng.chance(0.5) ? Name(rng.pick(ASTGenerator.names)) : nil,
          options: (0..<rng.int(0...2)).map { _ in
            LoadOption(
              Name(rng.pick(["null", "type", "root", "format", "x_1"])),
              (0..<rng.int(1...3)).map { _ in Name(rng.pick(ASTGenerator.strings)) })
          }))
    case 1:
      return Stmt(.use(Name(rng.pick(ASTGenerator.names))))
    case 2:
      let value =
        rng.chance(0.3)
        ? Expr(.range(value(depth - 1), value(depth - 1), rng.pick(RangeKind.allCases)))
        : filter(depth)
      return Stmt(.let(Name(rng.pick(ASTGenerator.names)), value))
    case 3:
      return Stmt(.count(rng.chance(0.7) ? filter(depth) : nil))
    case 4:
      return Stmt(
        .facets(
          (0..<rng.int(1...3)).map { _ in path() }, filter: rng.chance(0.5) ? filter(depth) : nil))
    case 5:
      return Stmt(.explain(query(depth)))
    case 6:
      return Stmt(.show(rng.chance(0.2) ? [] : (0..<rng.int(1...3)).map { _ in path() }))
    case 7:
      if rng.chance(0.2) { return Stmt(.settings) }
      return Stmt(.set(Name(rng.pick(ASTGenerator.names)), Expr(.literal(literal()))))
    default:
      return Stmt(.query(query(depth)))
    }
  }

  mutating func query(_ depth: Int) -> Query {
    var query = Query(filter: rng.chance(0.85) ? filter(depth) : nil)
    if rng.chance(0.4) {
      query.ordering = (0..<rng.int(1...3)).map { _ in
        SortKey(
          filter(depth - 1), rng.pick(SortDirection.allCases),
          nulls: rng.chance(0.3) ? rng.pick(NullsOrder.allCases) : nil)
      }
    }
    if rng.chance(0.3) { query.limit = countOperand() }
    if rng.chance(0.2) { query.offset = countOperand() }
    if query.filter == nil && query.ordering.isEmpty && query.limit == nil && query.offset == nil {
      query.limit = countOperand()
    }
    return query
  }

  private mutating func countOperand() -> Expr {
    rng.chance(0.7)
      ? Expr(.literal(.int(Int64(rng.int(0...1000)))))
      : Expr(.parameter(Name(rng.pick(ASTGenerator.parameters))))
  }
}
