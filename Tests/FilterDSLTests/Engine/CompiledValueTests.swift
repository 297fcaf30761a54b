import Testing

@testable import FilterDSL

/// A value expression compiled once and computed per record, with faults counted.
@Suite struct CompiledValueTests {
  struct Item {
    var price: Int
    var qty: Int
  }
  static let items = RecordType<Item>([.int("price", \.price), .int("qty", \.qty)])

  func compiled(_ text: String, parameters: [String: ValueType] = [:]) throws
    -> CompiledValue<Item>
  {
    let expr = try Parser.parseSelection(SourceText(text)).get()[0].expr
    let bound = try FilterEnvironment(Self.items, parameters: parameters).bind(expr).get(
      SourceText(text))
    return CompiledValue(bound, for: Self.items, parameters: parameters)
  }

  @Test func aValueIsComputedPerRecord() throws {
    let total = try compiled("price * qty + $fee", parameters: ["fee": .int])
      .binding(["fee": .int(5)])
    var faults = FaultCounts()
    #expect(total.type == .int)
    #expect(total.value(of: Item(price: 3, qty: 4), faults: &faults) == .int(17))
    #expect(faults.isEmpty)
  }

  @Test func aFaultIsNullAndCounted() throws {
    let ratio = try compiled("price / qty")
    var faults = FaultCounts()
    #expect(ratio.value(of: Item(price: 3, qty: 0), faults: &faults) == .null)
    #expect(!faults.isEmpty)
    let overflow = try compiled("price * price")
    #expect(overflow.value(of: Item(price: .max, qty: 1), faults: &faults) == .null)
  }

  @Test func theSelectionParsesNamesAndAliases() throws {
    let items = try Parser.parseSelection(SourceText("model, price - 1 as net, camera.zoom"))
      .get()
    #expect(items.map(\.name) == ["model", "net", "camera.zoom"])
    #expect(items.map { $0.field?.description } == ["model", nil, "camera.zoom"])
    #expect(Parser.parseSelection(SourceText("price as")).hasErrors)
    #expect(Parser.parseSelection(SourceText("a,")).hasErrors)
  }
}
