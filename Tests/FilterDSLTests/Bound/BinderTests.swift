import Testing

@testable import FilterDSL

/// What the checker binds: every name resolved once, every node typed, constants folded.
@Suite struct BinderTests {
  static let parameters: [String: ValueType] = ["budget": .int, "colors": .list(.string)]

  static func bind(_ text: String) throws -> BoundExpr {
    let expr = try Parser.parseFilter(SourceText(text)).get()
    let checked = Checker.check(expr, schema: PhoneSchema.schema, parameters: parameters)
    return try #require(checked.tree, "\(checked.diagnostics)")
  }

  /// The subject and first operand of a bound predicate.
  static func sides(_ text: String) throws -> (BoundExpr, BoundExpr?) {
    let bound = try bind(text)
    guard case .predicate(let subject, let condition) = bound.kind else {
      Issue.record("not a predicate: \(bound)")
      return (bound, nil)
    }
    return (subject, condition.operands.first)
  }

  @Test func fieldsResolveToSlotsAndTypes() throws {
    let (price, _) = try BinderTests.sides("price > 1")
    guard case .field(let field) = price.kind else { throw Failure("not a field: \(price)") }
    #expect(field.steps == [PathStep(slot: 1, throughList: false)])
    #expect(field.type == .int && !field.isOptional && field.isTopLevel)
    #expect(price.type == .int)

    let (zoom, _) = try BinderTests.sides("camera.zoom > 1")
    guard case .field(let nested) = zoom.kind else { throw Failure("not a field: \(zoom)") }
    #expect(
      nested.steps == [
        PathStep(slot: 13, throughList: false), PathStep(slot: 1, throughList: false),
      ])
    #expect(nested.type == .double && nested.isOptional && !nested.isTopLevel)

    // Through a list of records: each accessory's price, a list.
    let bound = try BinderTests.bind("any accessories.price > 10")
    guard case .quantified(.any, let subject, _) = bound.kind,
      case .field(let prices) = subject.kind
    else { throw Failure("not a quantifier over a field: \(bound)") }
    #expect(
      prices.steps == [
        PathStep(slot: 18, throughList: false), PathStep(slot: 1, throughList: true),
      ])
    #expect(prices.type == .list(.int))
  }

  @Test func knownValuesTravelWithTheField() throws {
    let (color, _) = try BinderTests.sides("color == Gold")
    guard case .field(let field) = color.kind else { throw Failure("not a field: \(color)") }
    #expect(field.knownValues?.contains("Gold") == true)
  }

  @Test func parametersGetSlotsInNameOrder() throws {
    let (_, budget) = try BinderTests.sides("price <= $budget")
    guard case .parameter(let parameter) = budget?.kind else {
      throw Failure("\(String(describing: budget))")
    }
    #expect(parameter == ParameterRef(name: "budget", slot: 0, type: .int))
    let (_, colors) = try BinderTests.sides("color in $colors")
    guard case .parameter(let list) = colors?.kind else {
      throw Failure("\(String(describing: colors))")
    }
    #expect(list.slot == 1 && list.type == .list(.string))
  }

  @Test func functionsResolveAndSayWhetherTheyMap() throws {
    let bound = try BinderTests.bind("any lower(tags) == 5g")
    guard case .quantified(_, let call, _) = bound.kind,
      case .call(let function, let arguments) = call.kind
    else { throw Failure("not a call: \(bound)") }
    #expect(function.name == "lower" && function.mapsOverList && arguments.count == 1)
    #expect(call.type == .list(.string))
    let (length, _) = try BinderTests.sides("len(tags) > 2")
    guard case .call(let len, _) = length.kind else { throw Failure("\(length)") }
    #expect(!len.mapsOverList && length.type == .int)
  }

  @Test func constantArithmeticIsFoldedUnlessItFaults() throws {
    let (_, sum) = try BinderTests.sides("price < 1000 + 2 * 50")
    #expect(sum?.constant == .int(1100) && sum?.type == .int)
    let (_, negated) = try BinderTests.sides("price > -(3 - 5)")
    #expect(negated?.constant == .int(2))
    // A fault is counted per record, as written: not folded.
    let (_, fault) = try BinderTests.sides("price > 1 / 0")
    guard case .arithmetic(.divide, _, _) = fault?.kind else {
      throw Failure("folded: \(String(describing: fault))")
    }
    let (_, overflow) = try BinderTests.sides("price > 9223372036854775807 + 1")
    #expect(overflow?.constant == nil)
  }

  @Test func aRecordFilterIsBoundInTheElementsScope() throws {
    let bound = try BinderTests.bind("any accessories (price > $budget and name == Case)")
    guard case .quantified(_, _, let condition) = bound.kind,
      case .satisfies(let filter, let elements) = condition.kind
    else { throw Failure("not a scoped filter: \(bound)") }
    #expect(elements.names == ["name", "price", "tags"])
    // The element's `price` (slot 1 of an accessory), not the phone's.
    #expect(
      filter.fields.map(\.steps) == [
        [PathStep(slot: 1, throughList: false)], [PathStep(slot: 0, throughList: false)],
      ])
  }

  @Test func everyNodeIsTyped() throws {
    let bound = try BinderTests.bind("price + 1 > 2.5 and released + 7d < 2023-01-01")
    guard case .logical(.and, let parts) = bound.kind else { throw Failure("\(bound)") }
    #expect(bound.type == .bool)
    guard case .predicate(let sum, _) = parts[0].kind, case .predicate(let date, _) = parts[1].kind
    else { throw Failure("\(parts)") }
    #expect(sum.type == .int && date.type == .date)
  }

  @Test func theBoundTreePrintsAsSource() throws {
    #expect(try BinderTests.bind("price<1000+1").description == "price < 1001")
    // Nothing to fold: the canonical text of what was written.
    for text in [
      "camera.zoom >= 2 or color in (Gold, \"Space Black\")",
      "any accessories (price > $budget) and not (released + 7d < 2023-01-01)",
      "lower(model) like \"*pro*\" and price in 100..<500 and tags is not empty",
    ] {
      let expr = try Parser.parseFilter(SourceText(text)).get()
      #expect(try BinderTests.bind(text).description == expr.description)
    }
  }

  @Test func pagingReadsNoField() throws {
    let query = try Parser.parseQuery(SourceText("price > 1 limit `price`")).get()
    let checked = Checker.check(query, schema: PhoneSchema.schema)
    #expect(checked.tree == nil)
    #expect(
      checked.diagnostics.map(\.message) == [
        "limit and offset are counts known before the records are read; they cannot read a field"
      ])
    let good = try Parser.parseQuery(SourceText("price > 1 limit $budget - 1 offset 2 * 3")).get()
    let bound = Checker.check(good, schema: PhoneSchema.schema, parameters: BinderTests.parameters)
    #expect(bound.tree?.offset?.constant == .int(6))
    #expect(bound.tree?.limit?.type == .int)
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}

/// `Schema.resolve`, the one walk of a dotted path.
@Suite struct ResolveTests {
  @Test func errorsSayWhichNameFails() {
    let schema = PhoneSchema.schema
    #expect(throws: Schema.PathError.unknown(index: 1, fields: PhoneSchema.camera)) {
      try schema.resolve(FieldPath("camera.zom")).get()
    }
    #expect(throws: Schema.PathError.unknown(index: 0, fields: schema)) {
      try schema.resolve(FieldPath("colr")).get()
    }
    guard case .failure(.notARecord(1, let field)) = schema.resolve(FieldPath("price.amount"))
    else {
      Issue.record("price.amount resolved")
      return
    }
    #expect(field.name == "price")
  }

  @Test func underAFieldWithNoValuesEverythingIsNull() throws {
    let field = try PhoneSchema.schema.resolve(FieldPath("notes.author.name")).get()
    #expect(field.type == .null && field.isOptional)
    #expect(field.steps == [PathStep(slot: 16, throughList: false)])
  }
}
