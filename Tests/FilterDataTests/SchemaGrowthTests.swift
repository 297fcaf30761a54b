import FilterDSL
import Foundation
import Testing

@testable import FilterData

/// A schema inferred from the first records grows when later records do not fit it: nothing
/// is read as null that was not null, and no field the data has is unknown.
@Suite struct SchemaGrowthTests {
  /// `count` records `{"id":i,"price":i % 100}`, then the `last` line.
  static func jsonLines(_ count: Int, then last: String) -> String {
    var text = ""
    text.reserveCapacity(count * 24)
    for i in 0..<count { text += "{\"id\":\(i),\"price\":\(i % 100)}\n" }
    return text + last + "\n"
  }

  @Test func aDecimalAndANewFieldAfterTheSampleWidenTheSchema() throws {
    let text = Self.jsonLines(20_000, then: #"{"id": 20000, "price": 5.5, "late": "x"}"#)
    let path = try DataFiles.write(text, "late.jsonl")
    let reader = try DataReader(path: path)
    #expect(!reader.sawEverything)
    #expect(reader.schema.fields.map(\.type) == [.int, .int])
    var records: [DataRecord] = []
    var versions: [Int] = []
    while let block = try reader.next() {
      records += block
      versions += block.map { _ in reader.schemaVersion }
    }
    #expect(records.count == 20_001)
    #expect(reader.sawEverything)
    #expect(reader.schema.names == ["id", "price", "late"])
    #expect(reader.schema.fields.map(\.type) == [.int, .double, .string])
    #expect(reader.schema.fields[2].isOptional)
    // The last record is read under the grown schema, with its decimal and its new field.
    #expect(records[20_000].values == [.int(20_000), .double(5.5), .string("x")])
    #expect(versions.first == 0 && versions.last == 1)
    // The records before keep their values; read again they fit the grown schema.
    #expect(records[7].values == [.int(7), .int(7)])
    #expect(reader.redecoded(records[7]).values == [.int(7), .int(7), .null])

    let changes = reader.takeSchemaChanges()
    #expect(changes.map(\.field) == ["price", "late"])
    #expect(changes.map(\.before) == [.int, nil])
    #expect(changes[0].place.line == 20_001)
    #expect(changes[0].place.description.contains("late.jsonl:20001:24\n"))
    #expect(changes[0].place.diagnostic.message.contains("'price' holds a number here"))
    #expect(changes[1].place.description.contains("late.jsonl:20001:29\n"))
  }

  @Test func aMisfitAfterAMillionRecordsIsReadToo() throws {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(8_000_020)
    for _ in 0..<1_000_000 { bytes += Array("{\"a\":1}\n".utf8) }
    bytes += Array("{\"a\":1.5}\n".utf8)
    let reader = try DataReader(path: try DataFiles.write(bytes, "million.jsonl"))
    reader.decodeOnly(["a"])
    var count = 0
    var last: Value? = nil
    while let block = try reader.next() {
      count += block.count
      last = block.last?.values.first
    }
    #expect(count == 1_000_001)
    #expect(last == .double(1.5))
    #expect(reader.takeSchemaChanges().first?.place.line == 1_000_001)
  }

  @Test func aFieldDecodedOnlyForAQueryGrowsButNewKeysAreSkipped() throws {
    let text = Self.jsonLines(10_000, then: #"{"id":"x","price":1,"late":true}"#)
    let reader = try DataReader(path: try DataFiles.write(text, "only.jsonl"))
    reader.decodeOnly(["price"])
    var count = 0
    while let block = try reader.next() { count += block.count }
    #expect(count == 10_001)
    // 'id' is not decoded, so it does not grow; 'late' cannot be asked for, so it is not added.
    #expect(reader.schema.names == ["id", "price"])
    #expect(reader.schema.fields[0].type == .int)
    #expect(reader.schemaVersion == 0)
  }

  @Test func csvCellsGrowTheirColumnAndTheWarningNamesTheirPlace() throws {
    var text = "id,note,n\n"
    for i in 0..<10_000 { text += "\(i),\"two\nlines\",\(i)\n" }
    text += "10000,\"again\nhere\",3.25\n10001,x,many\n"
    let path = try DataFiles.write(text, "late.csv")
    let reader = try DataReader(path: path, format: nil, blockSize: 4096)
    var records: [DataRecord] = []
    while let block = try reader.next() { records += block }
    #expect(records.count == 10_002)
    #expect(reader.schema.fields[2].type == .string)
    // The rows after one that grows the schema are looked at before it grows: the decimal
    // row is read as text already, as the row after it needs.
    #expect(records[10_000].values[2] == .string("3.25"))
    #expect(records[10_001].values[2] == .string("many"))
    #expect(reader.redecoded(records[3]).values == [.int(3), .string("two\nlines"), .string("3")])
    let changes = reader.takeSchemaChanges()
    #expect(changes.map(\.after) == [.double, .string])
    // Row 10,000 starts on line 20,002 (the header, then two lines a row); its third cell is
    // on the row's second line, column 7.
    #expect(changes[0].place.line == 20_003)
    #expect(changes[0].place.lineText == "here\",3.25")
    #expect(changes[0].place.description.contains("late.csv:20003:7\n"))
    #expect(changes[1].place.lineText == "10001,x,many")
    #expect(changes[1].place.description.contains("late.csv:20004:9\n"))
  }

  @Test func aQueryForAFieldTheSampleLacksReadsTheWholeInput() throws {
    let text = Self.jsonLines(20_000, then: #"{"id":1,"price":2,"late":"x"}"#)
    let path = try DataFiles.write(text, "whole.jsonl")
    let reader = try DataReader(path: path)
    #expect(reader.schema.field(named: "late") == nil)
    try reader.inferWhole()
    #expect(reader.sawEverything)
    #expect(reader.schema.field(named: "late")?.field.type == .string)
    #expect(reader.schema.field(named: "late")?.field.isOptional == true)
    var count = 0
    while let block = try reader.next() { count += block.count }
    #expect(count == 20_001)
  }

  @Test func typesOnlyWiden() {
    let cases: [(ValueType, ValueType, ValueType)] = [
      (.int, .double, .double), (.double, .int, .double), (.null, .bool, .bool),
      (.date, .null, .date), (.int, .string, .string), (.date, .dateTime, .string),
      (.list(.int), .list(.double), .list(.double)), (.list(.null), .list(.int), .list(.int)),
      (.list(.int), .int, .any), (.bool, .int, .string), (.record(Schema([])), .list(.int), .any),
      (.int, .decimal, .decimal),
      (.decimal, .double, .double),
    ]
    for (a, b, joined) in cases {
      #expect(a.widened(with: b) == joined, "\(a) \(b)")
      #expect(b.widened(with: a) == joined, "\(b) \(a)")
    }
    let a = Schema([.init("x", .int), .init("y", .string)])
    let b = Schema([.init("y", .string), .init("z", .bool)])
    let merged = ValueType.record(a).widened(with: .record(b))
    #expect(
      merged
        == .record(
          Schema([.init("x", .int), .init("y", .string), .init("z", .bool, optional: true)])))
  }
}

/// Records that each bring new keys: the schema has a field for every key, but a reader that
/// decodes only a few fields keeps records only as wide as those (8,000 such records took
/// 19.5 s and 3.0 GB in `flt --count`, every record holding a slot for every field; now
/// 0.07 s and 35 MB).
@Suite struct ManyKeysTests {
  /// JSON Lines of `count` records, record `i` with keys `ki_a` (`i`) and `ki_b` (`"x"`).
  static func newKeys(_ count: Int) -> String {
    (0..<count).map { #"{"k\#($0)_a": \#($0), "k\#($0)_b": "x"}"# }.joined(separator: "\n")
  }

  @Test func recordsAreOnlyAsWideAsTheFieldsDecoded() throws {
    let count = 3_000
    let text = Self.newKeys(count)
    let path = try DataFiles.write(text, "many-keys.jsonl")
    let reader = try DataReader(path: path, format: .jsonl)
    reader.decodeOnly(["k1_a"])
    var records: [DataRecord] = []
    while let block = try reader.next() { records += block }
    #expect(records.count == count)
    #expect(reader.schema.fields.count == 2 * count)
    #expect(records.allSatisfy { $0.values.count <= 3 })
    // The field decoded is read; the others read as null.
    let type = DataRecord.recordType(reader.schema)
    let filter = try CompiledFilter("k1_a == 1 and k2_a is null", for: type)
    #expect(filter.filter(records).matches.count == 1)
  }
}

extension SchemaGrowthTests {
  /// A field of lists, objects and other values in different records holds each value of
  /// its kind (``ValueType/any``: `--schema` says `any`, and why), whether the sample saw the
  /// mix or the schema grew to it; other mixes of scalars stay text.
  @Test func aFieldOfListsObjectsAndValuesKeepsTheirKinds() throws {
    let mixed = try DataFiles.write(
      "{\"o\":[]}\n{\"o\":{}}\n{\"o\":\"x\"}\n{\"o\":[1,2]}\n{\"o\":3}\n{\"t\":\"y\"}\n",
      "mixed.jsonl")
    let reader = try DataReader(path: mixed)
    var values: [Value] = []
    while let block = try reader.next() { values += block.map { $0.values[0] } }
    #expect(reader.schema.fields.map(\.type) == [.any, .string])
    #expect(
      values.prefix(5) == [
        .list([]), .object(ObjectValue(keys: [], values: [])), .string("x"),
        .list([.int(1), .int(2)]), .int(3),
      ])
    #expect(SchemaOutline.text(reader.schema).contains("o  any?  (mixed: lists, objects"))
    // Grown to it after the sample: text then a list, a list then text, a record then a list.
    let text = Schema([.init("o", .string)])
    #expect(text.grown(at: ["o"], found: .list(.int)).fields[0].type == .any)
    let lists = Schema([.init("o", .list(.int))])
    #expect(lists.grown(at: ["o"], found: .string).fields[0].type == .any)
    #expect(lists.merged(with: Schema([.init("o", .int)])).fields[0].type == .any)
    let records = Schema([.init("o", .record(Schema([.init("a", .int)])))])
    #expect(records.grown(at: ["o"], found: .list(.int)).fields[0].type == .any)
    #expect(text.grown(at: ["o"], found: .int).fields[0].type == .string)
    let late = try DataFiles.write(
      Self.jsonLines(20_000, then: #"{"id": 20000, "price": [], "late": "x"}"#), "late-list.jsonl")
    let grown = try DataReader(path: late)
    var last: [Value] = []
    while let block = try grown.next() { if let record = block.last { last = record.values } }
    #expect(grown.schema.fields[1].type == .any)
    #expect(last.count > 1 && last[1] == .list([]))
  }
}
