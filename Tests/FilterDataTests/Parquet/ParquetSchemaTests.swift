import FilterDSL
import Testing

@testable import FilterData

/// The layouts of lists and maps the format's rules for older writers keep readable (its
/// LogicalTypes.md, "backward-compatibility rules"), each as flt types it: the standard three
/// levels, the two-level forms (a repeated value; a repeated group of several fields; one
/// called `array` or `<list>_tuple`), a bare repeated field, a map; and the schemas refused.
@Suite struct ParquetSchemaTests {
  typealias Element = ParquetMetadata.SchemaElement

  static func group(
    _ name: String, _ repetition: Int32, _ children: Int32, converted: Int32? = nil,
    logical: ParquetMetadata.LogicalType? = nil
  ) -> Element {
    Element(
      repetition: repetition, name: name, childCount: children, convertedType: converted,
      logical: logical)
  }

  static func leaf(_ name: String, _ repetition: Int32, _ type: ParquetMetadata.PhysicalType)
    -> Element
  {
    Element(
      type: type, repetition: repetition, name: name,
      logical: type == .byteArray ? .string : nil)
  }

  /// The type flt gives the one top-level field of a schema of `elements` under a root.
  static func type(_ elements: [Element]) throws -> ValueType {
    let schema = try ParquetSchema([group("schema", 0, 1)] + elements)
    return try #require(schema.fields.first).type
  }

  @Test func everyListLayoutIsAList() throws {
    // Three levels, as the format asks.
    #expect(
      try Self.type([
        Self.group("tags", 1, 1, logical: .list), Self.group("list", 2, 1),
        Self.leaf("element", 1, .byteArray),
      ]) == .list(.string))
    // Two levels: a repeated value.
    #expect(
      try Self.type([Self.group("nums", 1, 1, converted: 3), Self.leaf("element", 2, .int32)])
        == .list(.int))
    // A repeated group of several fields is the element.
    let pair = ValueType.record(
      Schema([.init("str", .string), .init("num", .int)]))
    #expect(
      try Self.type([
        Self.group("pairs", 1, 1, logical: .list), Self.group("element", 2, 2),
        Self.leaf("str", 0, .byteArray), Self.leaf("num", 0, .int32),
      ]) == .list(pair))
    // A repeated group of one field called `array` or `<list>_tuple` is the element too.
    let one = ValueType.record(Schema([.init("str", .string)]))
    for name in ["array", "words_tuple"] {
      #expect(
        try Self.type([
          Self.group("words", 1, 1, logical: .list), Self.group(name, 2, 1),
          Self.leaf("str", 0, .byteArray),
        ]) == .list(one), "\(name)")
    }
    // A bare repeated field.
    #expect(try Self.type([Self.leaf("sizes", 2, .int64)]) == .list(.int))
    // A map: a list of key-value records.
    #expect(
      try Self.type([
        Self.group("specs", 1, 1, converted: 1), Self.group("key_value", 2, 2),
        Self.leaf("key", 0, .byteArray), Self.leaf("value", 1, .int32),
      ])
        == .list(.record(Schema([.init("key", .string), .init("value", .int, optional: true)]))))
  }

  /// Levels: where a two-level list is null, empty, and repeats.
  @Test func twoLevelsHaveTheirLevels() throws {
    let schema = try ParquetSchema([
      Self.group("schema", 0, 1), Self.group("nums", 1, 1, converted: 3),
      Self.leaf("element", 2, .int32),
    ])
    let field = try #require(schema.fields.first)
    guard case .optional(.list(.value(0), level: 2, repetition: 1), level: 1) = field.shape else {
      Issue.record("shape \(field.shape)")
      return
    }
    #expect(schema.columns[0].maxDefinition == 2 && schema.columns[0].maxRepetition == 1)
    #expect(!field.isFlat && schema.columns[0].isNested)
  }

  @Test func schemasFltCannotReadAreRefused() throws {
    for (elements, message) in [
      (
        [Self.group("tags", 1, 1, logical: .list), Self.leaf("element", 1, .byteArray)], "laid out"
      ),
      ([Self.group("empty", 1, 0)], "a group with no columns"),
      (
        [Self.group("g", 1, 2), Self.leaf("a", 1, .int32), Self.leaf("a", 1, .int32)], "two fields"
      ),
      ([Self.group("g", 1, 3), Self.leaf("a", 1, .int32)], "do not add up"),
    ] as [([Element], String)] {
      #expect {
        _ = try ParquetSchema([Self.group("schema", 0, 1)] + elements)
      } throws: { error in
        (error as? ParquetError)?.message.contains(message) ?? false
      }
    }
  }
}
