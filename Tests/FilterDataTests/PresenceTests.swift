import FilterDSL
import Foundation
import TestSupport
import Testing

@testable import FilterData

/// `exists` asks whether a record has a field, a JSON key present with `null` included; `is
/// null` whether it has a value (see ``FieldPresence``). Every engine answers alike: records
/// read one by one, blocks read by column, a loaded session table, and the reference
/// evaluator told which keys each record has by the generator that wrote them.
@Suite struct PresenceTests {
  /// One generated record: its JSON text, and the paths its objects have keys for.
  struct Record {
    var text: String
    var paths: Set<[String]>
  }

  /// A value of a field, or none: missing, `null`, `"NA"` (null where the field holds
  /// numbers), or a number.
  static func scalar(_ random: inout SplitMix64) -> String? {
    switch random.int(0...4) {
    case 0: nil
    case 1: "null"
    case 2: #""NA""#
    default: "\(random.int(0...9))"
    }
  }

  /// An object of `keys`, each missing, null or a value; `nested` names keys that may hold
  /// an object of their own.
  static func object(
    _ random: inout SplitMix64, _ keys: [String], prefix: [String], depth: Int,
    paths: inout Set<[String]>
  ) -> String {
    var members: [String] = []
    for key in keys {
      let path = prefix + [key]
      if key.hasPrefix("c") {
        // A record, null, or missing.
        switch random.int(0...4) {
        case 0: continue
        case 1: members.append("\"\(key)\": null")
        default:
          members.append(
            "\"\(key)\": "
              + object(&random, ["z", "d"], prefix: path, depth: depth + 1, paths: &paths))
        }
        paths.insert(path)
        continue
      }
      guard let value = scalar(&random) else { continue }
      paths.insert(path)
      members.append("\"\(key)\": \(value)")
    }
    if random.chance(0.2) {
      // A list of objects with keys present and missing: paths through it exist where the
      // list has a value.
      paths.insert(prefix + ["tags"])
      members.append(#""tags": [{"k": null}, {}, {"k": 1}]"#)
    }
    return "{" + members.joined(separator: ", ") + "}"
  }

  static func records(_ random: inout SplitMix64, count: Int) -> [Record] {
    // The first has every field, so that a schema inferred from a few records knows them.
    let first = Record(
      text: #"{"id": 0, "x": 1, "c": {"z": 1, "d": 1}, "cc": {"z": 1}, "tags": [{"k": 1}]}"#,
      paths: [["id"], ["x"], ["c"], ["c", "z"], ["c", "d"], ["cc"], ["cc", "z"], ["tags"]])
    return [first]
      + (1..<count).map { id in
        var paths: Set<[String]> = [["id"]]
        let body = object(&random, ["x", "c", "cc"], prefix: [], depth: 0, paths: &paths)
        let rest = body == "{}" ? "}" : ", " + body.dropFirst()
        return Record(text: "{\"id\": \(id)" + rest, paths: paths)
      }
  }

  static let filters = [
    "exists x", "not exists x", "x is null and exists x", "exists x or x > 3",
    "exists c", "exists c.z", "not exists c.z", "exists c.d and c.d is null",
    "exists cc.z or exists c.d", "exists c and not exists c.z", "not (exists cc)",
    "exists tags.k", "any tags (exists k)", "if(exists c.z, 1, 0) == 1",
    "exists c.z and c.z > 4", "x is not null or not exists c",
  ]

  /// The ids of the records that match `filter`, read as the one-shot command reads a file
  /// (record by record, or by column), with a schema inferred from the first `sample` records
  /// (so that it grows while the file is read) and blocks of `blockSize` bytes.
  static func oneShot(_ filter: String, _ path: String, sample: Int, blockSize: Int, byColumn: Bool)
    -> [Int]
  {
    oneShotTexts(filter, path, sample: sample, blockSize: blockSize, byColumn: byColumn)
      .compactMap(Self.id)
  }

  /// The texts of the records that match, read so.
  static func oneShotTexts(
    _ filter: String, _ path: String, sample: Int, blockSize: Int, byColumn: Bool
  ) -> [String] {
    let outcome = QueryingByColumnTests.run(
      filter, path, ReadOptions(), blockSize: blockSize, sample: sample, byColumn: byColumn)
    #expect(outcome.error == nil, "\(filter): \(outcome.error ?? "")")
    return outcome.records
  }

  static func id(_ text: String) -> Int? {
    guard let range = text.range(of: #"(?<="id": )[0-9]+"#, options: .regularExpression) else {
      return nil
    }
    return Int(text[range])
  }

  @Test func everyEngineAsTheKeysSay() throws {
    for seed in UInt64(1)...6 {
      var random = SplitMix64(seed: seed &* 104_729)
      let records = Self.records(&random, count: 300)
      let path = try DataFiles.write(
        records.map(\.text).joined(separator: "\n") + "\n", "presence-\(seed).jsonl")
      let loaded = try LoadedRecords(reading: DataReader(path: path, format: nil, blockSize: 512))
      let table = loaded.table
      let reference = ReferenceEvaluator(schema: table.schema)
      for filter in Self.filters {
        let expr = try #require(Parser.parseFilter(filter).value)
        let expected = records.indices.filter { id in
          reference.evaluate(
            expr, on: table.row(id),
            has: { path in records[id].paths.contains(path.components.map(\.text)) }
          ).truth == .true
        }
        let session = try CompiledFilter(filter, for: table.recordType).filter(table.rows).matches
        #expect(
          session == expected,
          "seed \(seed), session: \(filter): \(Self.difference(session, expected, records))")
        for (sample, blockSize) in [(5, 97), (1_000, 1 << 20)] {
          for byColumn in [false, true] {
            let got = Self.oneShot(
              filter, path, sample: sample, blockSize: blockSize, byColumn: byColumn)
            #expect(
              got == expected,
              "seed \(seed), sample \(sample), by column \(byColumn): \(filter): \(Self.difference(got, expected, records))"
            )
          }
        }
      }
    }
  }

  /// The records one list has and the other lacks, for a failure's message.
  static func difference(_ got: [Int], _ expected: [Int], _ records: [Record]) -> String {
    let (a, b) = (Set(got), Set(expected))
    let extra = a.subtracting(b).sorted().prefix(2).map { records[$0].text }
    let missing = b.subtracting(a).sorted().prefix(2).map { records[$0].text }
    return "extra \(extra), missing \(missing)"
  }

  @Test func aKeyPresentWithNullExists() throws {
    let path = try DataFiles.write(
      """
      {"id": 1, "x": null, "c": {"z": null}}
      {"id": 2, "c": {}}
      {"id": 3, "x": 5, "c": null}
      {"id": 4, "x": "NA", "c": {"z": 2}}
      {"id": 5}

      """, "presence.jsonl")
    let loaded = try LoadedRecords(reading: DataReader(path: path, format: nil))
    func ids(_ filter: String) throws -> [Int] {
      try CompiledFilter(filter, for: loaded.table.recordType).filter(loaded.table.rows)
        .matches.map { $0 + 1 }
    }
    #expect(try ids("exists x") == [1, 3, 4])
    #expect(try ids("x is null") == [1, 2, 4, 5])
    #expect(try ids("x is null and exists x") == [1, 4])
    #expect(try ids("exists c") == [1, 2, 3, 4])
    #expect(try ids("exists c.z") == [1, 4])
    #expect(try ids("not exists c.z") == [2, 3, 5])
    for filter in ["exists x", "not exists c.z", "x is null and exists x"] {
      #expect(
        Self.oneShot(filter, path, sample: 2, blockSize: 64, byColumn: true) == (try ids(filter)))
    }
  }

  @Test func aColumnOfACSVFileAlwaysExists() throws {
    let path = try DataFiles.write("id,x,camera.mp\n1,,\n2,3,12\n3,NA,\n", "presence.csv")
    let loaded = try LoadedRecords(reading: DataReader(path: path, format: nil))
    for (filter, expected) in [
      ("exists x", [0, 1, 2]), ("x is null", [0, 2]), ("not exists x", []),
    ] {
      let rows = try CompiledFilter(filter, for: loaded.table.recordType).filter(
        loaded.table.rows
      ).matches
      #expect(rows == expected, "\(filter)")
      for byColumn in [false, true] {
        let oneShot = Self.oneShotTexts(
          filter, path, sample: 10, blockSize: 1 << 20, byColumn: byColumn)
        #expect(oneShot.map { Int($0.prefix(1)) } == expected.map { $0 + 1 }, "\(filter)")
      }
    }
  }

  @Test func typedValuesHaveTheFieldsTheyHaveAValueIn() throws {
    struct Item: Sendable { var zoom: Double? }
    let items = RecordType<Item>([.double("zoom") { $0.zoom }])
    let filter = try CompiledFilter("exists zoom", for: items)
    #expect(filter.filter([Item(zoom: 2), Item(zoom: nil)]).matches.count == 1)
    // A record type may say otherwise: a dictionary has a key whose value is nil.
    let entries = RecordType<[String: Int?]>([.int("n") { $0["n"] ?? nil }]).withPresence {
      field in
      let name = field.path.components[0].text
      return { entry in entry.keys.contains(name) }
    }
    let exists = try CompiledFilter("exists n", for: entries)
    let isNull = try CompiledFilter("n is null", for: entries)
    let none: Int? = nil
    let records: [[String: Int?]] = [["n": 1], ["n": none], [:]]
    #expect(exists.filter(records).matches.count == 2)
    #expect(isNull.filter(records).matches.count == 2)
  }
}

/// The test that spares most nested records the walk for keys present with null.
@Suite struct MayHaveNullTests {
  static func mayHaveNull(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBufferPointer { JSONPresence.mayHaveNull($0, from: 0, to: $0.count) }
  }

  @Test func keysAndNumbersHoldNoNull() {
    #expect(!Self.mayHaveNull(#"{"megapixels": 12, "zoom": 5e2, "ok": true, "no": false}"#))
    #expect(!Self.mayHaveNull(#"{"a\"n": {"b" :1}, "c":[1, 2]}"#))
    #expect(!Self.mayHaveNull("{}"))
  }

  @Test func nullsAndTextValuesMayHold() {
    #expect(Self.mayHaveNull(#"{"a": null}"#))
    #expect(Self.mayHaveNull(#"{"a": {"b": [1, null]}}"#))
    #expect(Self.mayHaveNull(#"{"a": "NA"}"#))
    #expect(Self.mayHaveNull(#"{"a": ["x"]}"#))
    #expect(Self.mayHaveNull(#"{"a\\": "x\"y"}"#))
  }
}
