import FilterDSL
import Testing

@testable import FilterData

/// A field whose records hold lists, objects and other values (Meilisearch's own test set for
/// `IS EMPTY`): each value keeps its kind, so `is empty`, `exists`, `typeof` and `len` look
/// at each, alike in a loaded table (the column engine) and in a file read record by record
/// and by column, whether the sample saw the mix or the schema grew to it.
@Suite struct MixedValuesTests {
  static let lines = """
    {"id":0,"opt1":null}
    {"id":1,"opt1":[]}
    {"id":2,"opt1":{}}
    {"id":3,"opt1":""}
    {"id":4,"opt1":"x"}
    {"id":5,"opt1":["a"]}
    {"id":6,"opt1":{"opt2":1}}
    {"id":7,"opt1":0}
    {"id":8}
    {"id":9,"opt1":[[]]}

    """

  /// The ids of the records `filter` matches, the same by every path (the file read with a
  /// sample of each size in `samples`: of 2, the schema grows from a list to mixed values).
  static func ids(
    _ filter: String, _ path: String, _ table: ColumnTable, samples: [Int] = [2, 1_000]
  ) -> [Int]? {
    let query = "\(filter) order by id"
    guard let compiled = try? CompiledQuery(query, for: table.recordType) else { return nil }
    let loaded = compiled.run(table.rows).records.map { row -> Int in
      guard case .int(let id) = table.value(row: row, slot: 0) else { return -1 }
      return Int(id)
    }
    for sample in samples {
      for byColumn in [false, true] {
        let outcome = QueryingByColumnTests.run(
          query, path, ReadOptions(), blockSize: 1 << 16, sample: sample, byColumn: byColumn)
        let read = outcome.records.compactMap { text -> Int? in
          guard let range = text.range(of: #""id":"#) else { return nil }
          return Int(text[range.upperBound...].prefix { $0.isNumber })
        }
        #expect(
          read == loaded && outcome.error == nil,
          "\(filter): sample \(sample), by column \(byColumn): \(outcome)")
      }
    }
    return loaded
  }

  @Test func eachValueKeepsItsKind() throws {
    let path = try DataFiles.write(Self.lines, "mixed-values.jsonl")
    let reader = try DataReader(path: path, format: nil)
    #expect(reader.schema.fields.map(\.type) == [.int, .any])
    let table = try LoadedRecords(reading: DataReader(path: path, format: nil)).table
    #expect(Self.ids("opt1 is empty", path, table) == [1, 2, 3])
    #expect(Self.ids("opt1 is not empty", path, table) == [4, 5, 6, 9])
    #expect(Self.ids("exists opt1", path, table) == [0, 1, 2, 3, 4, 5, 6, 7, 9])
    #expect(Self.ids("opt1 is null", path, table) == [0, 8])
    #expect(Self.ids("typeof(opt1) == list", path, table) == [1, 5, 9])
    #expect(Self.ids("typeof(opt1) == record", path, table) == [2, 6])
    #expect(Self.ids("typeof(opt1) in (string, int)", path, table) == [3, 4, 7])
    #expect(Self.ids("len(opt1) == 1", path, table) == [4, 5, 6, 9])
    // (Comparisons check against the sample's schema: the first two records' is a list.)
    #expect(Self.ids(#"opt1 == "x" or opt1 == 0"#, path, table, samples: [1_000]) == [4, 7])
    #expect(Self.ids(#"opt1 contains "x""#, path, table, samples: [1_000]) == [4])
  }

  /// The values are written back as they were: JSON output keeps lists and objects, a loaded
  /// table's rows as JSON too.
  @Test func valuesAreWrittenAsTheyWere() throws {
    let path = try DataFiles.write(Self.lines, "mixed-written.jsonl")
    let table = try LoadedRecords(reading: DataReader(path: path, format: nil)).table
    let written = (0..<table.count).map { ValueText.json(table.value(row: $0, slot: 1)) }
    #expect(
      written == [
        "null", "[]", "{}", #""""#, #""x""#, #"["a"]"#, #"{"opt2":1}"#, "0", "null", "[[]]",
      ])
  }

  /// Mixed values nested as deep as the reader allows (objects in objects, lists in lists)
  /// are read, tested and written back by every path without running out of stack.
  @Test func deeplyNestedMixedValues() throws {
    let object =
      String(repeating: #"{"b":"#, count: 250) + "[]" + String(repeating: "}", count: 250)
    let list = String(repeating: "[", count: 250) + String(repeating: "]", count: 250)
    let lines =
      #"{"id":0,"opt1":1}"# + "\n" + #"{"id":1,"opt1":"# + object + "}\n"
      + #"{"id":2,"opt1":"# + list + "}\n"
    let path = try DataFiles.write(lines, "mixed-deep.jsonl")
    let table = try LoadedRecords(reading: DataReader(path: path, format: nil)).table
    #expect(Self.ids("typeof(opt1) == record or len(opt1) == 1", path, table) == [1, 2])
    #expect(ValueText.json(table.value(row: 1, slot: 1)) == object)
    #expect(ValueText.json(table.value(row: 2, slot: 1)) == list)
    #expect(table.value(row: 2, slot: 1) == table.value(row: 2, slot: 1))
  }
}
