import FilterDSL

/// Well-typed random filters over ``schema``, and random records of it: what the differential
/// tests of every engine (rows, columns, SQL) feed to both sides.
public struct TypedFilterGenerator {
  /// The fields of the records: every type, optional, nested records and lists of them.
  /// The fields of the records of `kids` and `rec`.
  public static let inner = Schema([.init("x", .int), .init("y", .string, optional: true)])
  /// The fields of the records.
  public static let schema = Schema([
    .init("i", .int, optional: true), .init("j", .int, optional: true),
    .init("d", .double, optional: true),
    .init("s", .string, optional: true), .init("b", .bool, optional: true),
    .init("t", .date, optional: true),
    .init("dt", .dateTime, optional: true), .init("du", .duration, optional: true),
    .init("tags", .list(.string), optional: true), .init("nums", .list(.int), optional: true),
    .init("rec", .record(inner), optional: true),
    .init("kids", .list(.record(inner)), optional: true),
    .init("tm", .time, optional: true), .init("mx", .any, optional: true),
  ])
  /// The parameters filters use.
  public static let parameters: [String: ValueType] = [
    "pi": .int, "ps": .string, "pl": .list(.string),
  ]
  /// The clock and the parameters' values.
  public static let context = EvaluationContext(
    now: Instant(seconds: 1_700_000_000),
    parameters: ["pi": .int(3), "ps": .string("b"), "pl": .list([.string("a"), .string("B")])])

  /// The random source.
  public var rng: SplitMix64
  /// A generator whose filters and records follow from `seed`.
  public init(seed: UInt64) { rng = SplitMix64(seed: seed) }

  /// The texts fields and literals take.
  public static let strings = [
    "a", "b", "B", "ab", "é", "e", "", "Space Black", "x*y", "3", " -2 ",
  ]

  func e(_ kind: Expr.Kind) -> Expr { Expr(kind) }
  func field(_ name: String) -> Expr { e(.field(FieldPath(name))) }
  func lit(_ literal: Literal) -> Expr { e(.literal(literal)) }

  /// A filter (a true-or-false expression) nested up to `depth` levels.
  public mutating func bool(_ depth: Int) -> Expr {
    let choice = depth <= 0 ? rng.int(4...15) : rng.int(0...15)
    switch choice {
    case 0:
      return e(
        .logical(rng.chance(0.5) ? .and : .or, (0..<rng.int(2...3)).map { _ in bool(depth - 1) }))
    case 1: return e(.not(bool(depth - 1)))
    case 2:
      return e(
        .predicate(
          bool(depth - 1), Condition(.compare(rng.pick([.equal, .notEqual]), bool(depth - 1), []))))
    case 3:
      let t = rng.pick(["i", "s", "t"])
      let quantifier = rng.pick(Quantifier.allCases)
      // Lists of elements, of the fields of records in a list, and computed per element.
      let list =
        t == "s"
        ? rng.pick([
          field("tags"), field("kids.y"),
          e(.call(Name(rng.pick(["lower", "trim"])), [field("tags")])),
          e(.arithmetic(.add, field("tags"), field("kids.y"))),
        ])
        : rng.pick([
          field("nums"), field("kids.x"),
          e(.arithmetic(rng.pick(ArithmeticOperator.allCases), field("nums"), int(0))),
          e(.negate(field("kids.x"))), e(.call(Name("abs"), [field("nums")])),
          e(.arithmetic(.add, field("nums"), field("kids.x"))),
        ])
      let element = t == "s" ? string(0) : int(0)
      return e(
        .quantified(
          quantifier, list, Condition(.compare(rng.pick(ComparisonOperator.allCases), element, [])))
      )
    case 4, 5: return compare()
    case 6: return member()
    case 7:
      let x = int(1)
      return e(.predicate(x, Condition(.between(int(1), int(1), [], negated: rng.chance(0.3)))))
    case 8: return text()
    case 9:
      return e(
        .predicate(
          rng.pick([
            field("i"), field("s"), field("t"), field("tags"), field("b"),
            e(.field(FieldPath("rec.y"))),
          ]), Condition(.isNull(negated: rng.chance(0.5)))))
    case 10:
      if rng.chance(0.2) {
        // A box, sometimes across the antimeridian; coordinates out of range fault.
        let corners = [0, 1, 2, 3].map { _ in lit(.int(rng.pick([-2, 0, 3, 170, -170]))) }
        return e(.call(Name("inBox"), [int(0), rng.chance(0.5) ? double(0) : int(0)] + corners))
      }
      return rng.chance(0.5) ? field("b") : e(.exists(FieldPath(rng.pick(["d", "rec.x", "rec"]))))
    case 11:
      if rng.chance(0.3) {
        return e(
          .predicate(
            field("nums"), Condition(.text(.contains, int(0), [], negated: rng.chance(0.3)))))
      }
      return e(
        .predicate(
          field("tags"),
          Condition(
            .text(.contains, string(0), rng.chance(0.3) ? .caseInsensitive : [], negated: false))))
    case 12:
      return e(
        .predicate(
          rng.pick([field("s"), field("tags"), string(1)]),
          Condition(.isEmpty(negated: rng.chance(0.5)))))
    case 13:
      let (subject, operand) =
        rng.chance(0.5)
        ? (int(1), int(1)) : rng.chance(0.5) ? (string(1), string(1)) : (date(1), date(0))
      return e(.predicate(subject, Condition(.same(operand, negated: rng.chance(0.5)))))
    case 14:
      let inner = kidsFilter()
      return e(
        .quantified(rng.pick(Quantifier.allCases), field("kids"), Condition(.satisfies(inner))))
    default: return lit(rng.pick([.bool(true), .bool(false), .null]))
    }
  }

  /// A filter on the fields of a record of `kids`: x (int) and y (text).
  public mutating func kidsFilter() -> Expr {
    rng.chance(0.5)
      ? e(
        .predicate(
          field("x"), Condition(.compare(rng.pick(ComparisonOperator.allCases), small(), []))))
      : e(
        .logical(
          .and,
          [
            e(
              .predicate(
                field("x"), Condition(.member(e(.list([small(), small()])), [], negated: false)))),
            e(.predicate(field("y"), Condition(.isNull(negated: rng.chance(0.5))))),
          ]))
  }

  /// A comparison, most often of a field with a literal.
  public mutating func compare() -> Expr {
    let op = rng.pick(ComparisonOperator.allCases)
    if rng.chance(0.5) {
      // The shape of most real filters: a field against a literal.
      switch rng.int(0...3) {
      case 0:
        return e(
          .predicate(
            field(rng.pick(["i", "j"])),
            Condition(.compare(op, lit(.int(Int64(rng.int(-3...3)))), []))))
      case 1:
        let constant: Literal =
          rng.chance(0.3)
          ? .int(Int64(rng.int(-2...3)))
          : rng.chance(0.5) ? .double(rng.pick([0.5, 2.0, -1.5, 3.0])) : decimalLiteral()
        return e(.predicate(field("d"), Condition(.compare(op, lit(constant), []))))
      case 2:
        let constant: Literal =
          rng.chance(0.5) ? .double(rng.pick([0.5, 2.0, -1.5, 3.0])) : decimalLiteral()
        return e(.predicate(field("i"), Condition(.compare(op, lit(constant), []))))
      default:
        let options = StringOptions(rawValue: UInt8(rng.int(0...3)))
        return e(
          .predicate(
            field("s"), Condition(.compare(op, lit(.string(rng.pick(Self.strings))), options))))
      }
    }
    switch rng.int(0...5) {
    case 0: return e(.predicate(int(2), Condition(.compare(op, int(2), []))))
    case 1:
      return e(
        .predicate(double(2), Condition(.compare(op, rng.chance(0.5) ? int(1) : double(1), []))))
    case 2:
      let options = StringOptions(rawValue: UInt8(rng.int(0...3)))
      return e(.predicate(string(1), Condition(.compare(op, string(1), options))))
    case 3: return e(.predicate(date(1), Condition(.compare(op, date(1), []))))
    case 4: return e(.predicate(duration(1), Condition(.compare(op, duration(1), []))))
    case 5 where rng.chance(0.25): return mixed()
    case 5 where rng.chance(0.5):
      return e(.predicate(time(1), Condition(.compare(op, time(1), []))))
    default:
      if rng.chance(0.3) {
        // Whole lists: equal in length and element by element, three-valued.
        let list = { (g: inout TypedFilterGenerator) -> Expr in
          g.rng.chance(0.5)
            ? g.rng.pick([g.field("nums"), g.field("kids.x")])
            : g.e(.list((0..<g.rng.int(0...3)).map { _ in g.small() }))
        }
        let (a, b) = (list(&self), list(&self))
        switch rng.int(0...2) {
        case 0: return e(.predicate(a, Condition(.compare(rng.pick([.equal, .notEqual]), b, []))))
        case 1: return e(.predicate(a, Condition(.same(b, negated: rng.chance(0.5)))))
        default:
          return e(
            .predicate(
              a, Condition(.member(e(.list([b, list(&self)])), [], negated: rng.chance(0.3)))))
        }
      }
      if rng.chance(0.5) {
        return e(.predicate(field("rec.y"), Condition(.compare(op, string(0), []))))
      }
      return e(.predicate(field("rec.x"), Condition(.compare(op, int(0), []))))
    }
  }

  /// An `in` test: a list, a range or a list parameter.
  public mutating func member() -> Expr {
    let negated = rng.chance(0.3)
    switch rng.int(0...3) {
    case 0:
      let items = (0..<rng.int(1...12)).map { _ in
        rng.chance(0.15) ? lit(decimalLiteral()) : lit(.int(Int64(rng.int(-3...3))))
      }
      return e(.predicate(int(1), Condition(.member(e(.list(items)), [], negated: negated))))
    case 1:
      let items = (0..<rng.int(1...12)).map { _ in lit(.string(rng.pick(Self.strings))) }
      let options = StringOptions(rawValue: UInt8(rng.int(0...3)))
      return e(
        .predicate(string(0), Condition(.member(e(.list(items)), options, negated: negated))))
    case 2 where rng.chance(0.2):
      let items = (0..<rng.int(1...4)).map { _ in lit(.time(rng.pick(Self.times))) }
      return e(.predicate(time(1), Condition(.member(e(.list(items)), [], negated: negated))))
    case 2:
      let range = e(.range(int(0), int(0), rng.pick(RangeKind.allCases)))
      return e(.predicate(int(1), Condition(.member(range, [], negated: negated))))
    default:
      return e(
        .predicate(
          string(0),
          Condition(.member(e(.parameter(Name("pl"))), .caseInsensitive, negated: negated))))
    }
  }

  /// A text test: contains, startsWith, endsWith, like or matches.
  public mutating func text() -> Expr {
    let op = rng.pick(TextOperator.allCases)
    let patterns =
      op == .matches
      ? [
        "a.*", "[ab]+", "\\w*", "é|e", "(a|b)*c?", "\\D+", "[[:alpha:] ]+", "[^[:punct:]]*",
        "[A-Z][[:lower:]]*", "[a-f[:digit:]]+",
      ]
      : op == .like ? ["a*", "?b", "*", "x\\*y", "*é*", "[a-c]*"] : Self.strings
    let options = StringOptions(rawValue: UInt8(rng.int(0...3)))
    return e(
      .predicate(
        string(0),
        Condition(.text(op, lit(.string(rng.pick(patterns))), options, negated: rng.chance(0.3)))))
  }

  /// A small integer literal (inside an element's scope, where i and j are not fields).
  public mutating func small() -> Expr { lit(.int(Int64(rng.int(-3...3)))) }

  /// An integer expression nested up to `depth` levels.
  public mutating func int(_ depth: Int) -> Expr {
    switch depth <= 0 ? rng.int(0...3) : rng.int(0...12) {
    case 0, 1: return field(rng.pick(["i", "j"]))
    case 2: return lit(.int(rng.pick([0, 1, -1, 2, 3, Int64.max, Int64.min, 1000, 63, 64, -64])))
    case 3: return e(.parameter(Name("pi")))
    case 4, 5:
      return e(.arithmetic(rng.pick(ArithmeticOperator.allCases), int(depth - 1), int(depth - 1)))
    case 6: return e(.negate(int(depth - 1)))
    case 7 where rng.chance(0.2):
      // The records of a list whose fields pass, counted.
      let kept = e(.filtered(field("kids"), kidsFilter()))
      return e(.call(Name(rng.pick(["count", "len"])), [kept]))
    case 7 where rng.chance(0.3):
      // Aggregates of a list: nulls passed over, an empty list null, a sum past 64 bits a fault.
      let list = rng.pick([
        field("nums"), field("kids.x"),
        e(.arithmetic(rng.pick([.multiply, .add, .shiftLeft]), field("nums"), int(0))),
      ])
      return e(.call(Name(rng.pick(["sum", "min", "max"])), [list]))
    case 7:
      return e(
        .call(
          Name(rng.pick(["abs", "len"])), [rng.chance(0.5) ? int(depth - 1) : string(0)].map { $0 })
      )
    case 8 where rng.chance(0.25):
      return e(.call(Name(rng.pick(["hour", "minute", "second"])), [time(depth - 1)]))
    case 8:
      return e(
        .call(
          Name(rng.pick(["year", "month", "day", "weekday", "hour", "second"])), [date(depth - 1)]))
    case 9:
      // Casts: what does not convert is a fault, in both engines alike.
      return e(
        .call(Name("int"), [rng.pick([string(depth - 1), double(depth - 1), field("b")])]))
    case 10:
      return e(.call(Name("if"), [bool(depth - 1), int(depth - 1), int(depth - 1)]))
    case 11 where rng.chance(0.3):
      return e(.call(Name("nullif"), [int(depth - 1), rng.chance(0.5) ? int(0) : double(0)]))
    case 11:
      return e(.call(Name("coalesce"), [int(depth - 1), int(depth - 1), int(0)]))
    default: return e(.call(Name(rng.pick(["round", "floor", "ceil"])), [double(depth - 1)]))
    }
  }

  /// A decimal expression nested up to `depth` levels.
  public mutating func double(_ depth: Int) -> Expr {
    switch depth <= 0 ? rng.int(0...1) : rng.int(0...3) {
    case 0: return field("d")
    case 1:
      // A double, or an exact decimal (with an integer, exact; with a double, a double).
      return rng.chance(0.5)
        ? lit(.double(rng.pick([0.5, -1.5, 2.0, 1e300, -0.0, 3.25]))) : lit(decimalLiteral())
    case 2:
      return e(
        .arithmetic(
          rng.pick(ArithmeticOperator.allCases.filter { !$0.isBitwise }), double(depth - 1),
          rng.chance(0.5) ? int(depth - 1) : double(depth - 1)))
    case 3 where rng.chance(0.3):
      return e(.call(Name("distance"), [int(0), double(depth - 1), lit(.double(1.5)), int(0)]))
    case 3 where rng.chance(0.3):
      return e(
        .call(Name(rng.pick(["mean", "avg"])), [rng.pick([field("nums"), field("kids.x")])]))
    default: return e(.call(Name(rng.pick(["min", "max"])), [double(depth - 1), int(depth - 1)]))
    }
  }

  /// An exact decimal literal: fractions either side of an integer, scales kept (`2.00`), one
  /// that a double cannot hold, and one beyond 2^53.
  public mutating func decimalLiteral() -> Literal {
    let text = rng.pick([
      "0.5", "-1.5", "2.00", "3.25", "0.1", "-0.0", "1.10", "0.30", "99999999999999999999.5",
      "9007199254740993.0", "-2.999",
    ])
    return .decimal(ExactDecimal(text) ?? ExactDecimal(0))
  }

  /// A text expression nested up to `depth` levels.
  public mutating func string(_ depth: Int) -> Expr {
    switch depth <= 0 ? rng.int(0...2) : rng.int(0...8) {
    case 0: return field("s")
    case 1: return lit(.string(rng.pick(Self.strings)))
    case 2: return e(.parameter(Name("ps")))
    case 3: return e(.call(Name(rng.pick(["lower", "upper", "trim"])), [string(depth - 1)]))
    case 4:
      return e(.call(Name("substring"), [string(depth - 1), int(depth - 1), int(0)]))
    case 5:
      return e(.call(Name("replace"), [string(depth - 1), string(0), string(0)]))
    case 6:
      return e(.call(Name("text"), [rng.chance(0.5) ? int(depth - 1) : date(depth - 1)]))
    case 7: return e(.call(Name("coalesce"), [string(depth - 1), string(0)]))
    default: return e(.arithmetic(.add, string(depth - 1), string(depth - 1)))
    }
  }

  /// A date expression nested up to `depth` levels.
  public mutating func date(_ depth: Int) -> Expr {
    switch depth <= 0 ? rng.int(0...1) : rng.int(0...3) {
    case 0: return field(rng.pick(["t", "dt"]))
    case 1: return lit(.date(CalendarDate(daysSinceEpoch: Int64(rng.int(19_000...19_010)))))
    case 2: return e(.arithmetic(rng.pick([.add, .subtract]), date(depth - 1), duration(0)))
    default: return e(.call(Name(rng.pick(["today", "now"])), []))
    }
  }

  /// The times of day fields and literals take: midnight at both ends of the day (`24:00` is
  /// after every other), fractions, and times a microsecond apart.
  public static let times: [TimeOfDay] = [
    0, 1, 34_200_000_000_000, 43_200_500_000_000, 79_200_000_000_000, 86_399_999_999_000,
    86_399_999_998_000, 86_400_000_000_000,
  ].compactMap { TimeOfDay(nanosecondsSinceMidnight: $0) }

  /// The values of the field of mixed kinds: empty and other text, numbers, true, lists
  /// (empty, of numbers and text, nested), objects (empty, with a list inside).
  public static let mixedValues: [Value] = [
    .string(""), .string("a"), .string("B"), .int(3), .int(-1), .bool(true), .list([]),
    .list([.int(1), .string("a")]), .list([.list([])]), .object(ObjectValue(keys: [], values: [])),
    .object(ObjectValue(keys: ["k", "l"], values: [.int(1), .list([.bool(false), .null])])),
  ]

  /// A test of the field of mixed kinds: empty, null, equal to a value of some kind, of a
  /// kind, of a length, holding text.
  public mutating func mixed() -> Expr {
    let mx = field("mx")
    switch rng.int(0...5) {
    case 0: return e(.predicate(mx, Condition(.isEmpty(negated: rng.chance(0.3)))))
    case 1:
      let op = rng.pick([ComparisonOperator.equal, .notEqual, .less, .greaterOrEqual])
      let constant: Literal = rng.pick([.string("a"), .int(3), .bool(true), .string("")])
      return e(.predicate(mx, Condition(.compare(op, lit(constant), []))))
    case 2:
      let kind = rng.pick(["string", "int", "list", "record", "null", "bool"])
      return e(
        .predicate(
          e(.call(Name("typeof"), [mx])), Condition(.compare(.equal, lit(.string(kind)), []))))
    case 3:
      return e(
        .predicate(
          e(.call(Name("len"), [mx])), Condition(.compare(.greater, lit(.int(0)), []))))
    case 4:
      return e(
        .predicate(
          mx,
          Condition(
            .text(rng.pick([.contains, .startsWith]), lit(.string("a")), [], negated: false))))
    default: return e(.predicate(mx, Condition(.isNull(negated: rng.chance(0.5)))))
    }
  }

  /// A time-of-day expression nested up to `depth` levels.
  public mutating func time(_ depth: Int) -> Expr {
    switch depth <= 0 ? rng.int(0...1) : rng.int(0...3) {
    case 0: return field("tm")
    case 1: return lit(.time(rng.pick(Self.times)))
    case 2:
      return e(.arithmetic(rng.pick([.add, .subtract]), time(depth - 1), duration(0)))
    default:
      let text = lit(.string(rng.pick(["22:00", "09:30:15.5", "2022-01-10T23:00:00Z", "24:00"])))
      return e(.call(Name("time"), [rng.pick([field("dt"), string(0), text])]))
    }
  }

  /// A duration expression nested up to `depth` levels.
  public mutating func duration(_ depth: Int) -> Expr {
    switch depth <= 0 ? rng.int(0...1) : rng.int(0...3) {
    case 0: return field("du")
    case 1:
      return lit(
        .duration(
          TimeSpan(
            nanoseconds: rng.pick([
              0, 3_600_000_000_000, 86_400_000_000_000, Int64.max, -86_400_000_000_000,
            ]))))
    case 2 where rng.chance(0.3): return e(.arithmetic(.subtract, time(0), time(0)))
    case 2: return e(.arithmetic(.subtract, field("dt"), date(0)))
    default: return e(.arithmetic(rng.pick([.multiply, .divide]), duration(depth - 1), int(0)))
    }
  }

  /// A record of ``schema``, values in its order, some null.
  public mutating func record() -> [Value] {
    func maybe(_ value: Value) -> Value { rng.chance(0.2) ? .null : value }
    let tags: [Value] = (0..<rng.int(0...3)).map { _ in
      rng.chance(0.1) ? .null : .string(rng.pick(Self.strings))
    }
    let nums: [Value] = (0..<rng.int(0...3)).map { _ in
      rng.chance(0.1) ? .null : .int(Int64(rng.int(-3...3)))
    }
    return [
      maybe(.int(rng.pick([0, 1, -1, 2, 3, Int64.max, Int64.min]))),
      maybe(.int(Int64(rng.int(-3...3)))),
      maybe(.double(rng.pick([0.5, -1.5, 2.0, 3.0, 1e300, -0.0]))),
      maybe(.string(rng.pick(Self.strings))),
      maybe(.bool(rng.chance(0.5))),
      maybe(.date(CalendarDate(daysSinceEpoch: Int64(rng.int(19_000...19_010))))),
      maybe(.dateTime(Instant(seconds: Int64(rng.int(1_641_600_000...1_642_600_000))))),
      maybe(
        .duration(
          TimeSpan(nanoseconds: rng.pick([0, 3_600_000_000_000, 86_400_000_000_000, Int64.min])))),
      maybe(.list(tags)),
      maybe(.list(nums)),
      maybe(.record([.int(Int64(rng.int(-1...1))), rng.chance(0.5) ? .null : .string("y")])),
      maybe(
        .list(
          (0..<rng.int(0...3)).map { _ in
            rng.chance(0.1)
              ? .null
              : .record([
                rng.chance(0.1) ? .null : .int(Int64(rng.int(-3...3))),
                rng.chance(0.5) ? .null : .string(rng.pick(Self.strings)),
              ])
          })),
      maybe(.time(rng.pick(Self.times))),
      maybe(rng.pick(Self.mixedValues)),
    ]
  }
}
