import FilterDSL
import Foundation
import TestSupport
import Testing

@testable import FilterData

/// Records read straight into columns (``DataReader/nextRows(_:)``, as loads read them: in
/// parts, a coded field's value taken by its spelling without decoding it) make the table
/// that reading them as records and appending their values makes, with the same texts,
/// warnings and errors: whatever the block size and whatever the data holds (one value
/// spelled several ways, nested records and lists, repeated keys, values and nested fields
/// that grow the schema, records over several lines, fixed types and null texts).
@Suite struct ReadingIntoColumnsTests {
  /// Random JSON Lines (or a JSON array, one record a line or over several) of `count`
  /// records.
  static func data(_ random: inout SplitMix64, count: Int, array: Bool) -> String {
    let names = [
      #""Snow""#, #""Space Black""#, #""\u00e9""#, #""é""#, #""a\"b""#, #""NA""#, "null",
    ]
    let widenAt = random.chance(0.5) ? random.int(0...count) : count + 1
    let nestedAt = random.chance(0.5) ? random.int(0...count) : count + 1
    let brokenAt = random.chance(0.2) ? random.int(0...(count - 1)) : -1
    let pretty = array && random.chance(0.3)
    var records: [String] = []
    for row in 0..<count {
      var fields: [String] = [#""id": \#(row)"#]
      fields.append(#""name": \#(random.pick(names))"#)
      let price = row >= widenAt ? random.pick(["12.5", #""cheap""#, "7"]) : "\(row % 40)"
      fields.append(#""price": \#(price)"#)
      let zoom = row >= nestedAt ? random.pick(["2.5", "3"]) : "\(row % 3)"
      let camera = random.pick([
        #"{"mp": 48, "zoom": \#(zoom)}"#, #"{"zoom": \#(zoom), "mp": 12}"#, #"{"mp":48,"zoom":1}"#,
        "null", "{}", row >= nestedAt ? #"{"mp": 8, "ois": true}"# : #"{"mp": 8}"#,
      ])
      fields.append(#""camera": \#(camera)"#)
      fields.append(
        #""tags": \#(random.pick([#"["5G", "eSIM"]"#, "[]", #"["5G","eSIM"]"#, #"["5G", 4]"#]))"#)
      fields.append(#""released": \#(random.pick([#""2022-09-26""#, #""2023-01-02""#, "null"]))"#)
      if row > count / 2 && random.chance(0.3) { fields.append(#""late": \#(row % 2 == 0)"#) }
      if random.chance(0.1) { fields.append(#""name": "again""#) }
      fields.shuffle(using: &random)
      var record = "{" + fields.joined(separator: random.chance(0.1) ? ",\n  " : ", ") + "}"
      if pretty { record = record.replacingOccurrences(of: ", ", with: ",\n    ") }
      if row == brokenAt {
        record = random.pick([#"{"id": 1 "x": 2}"#, #"{"name": "\q"}"#, "[1]"])
      }
      records.append(record)
    }
    return array
      ? "[\n" + records.joined(separator: ",\n") + "\n]\n" : records.joined(separator: "\n") + "\n"
  }

  /// Random CSV of `count` rows, with nested fields (`camera.mp`), lists (`5G;eSIM`), quoted
  /// cells, empty cells and null texts, a price that widens, a broken row now and then. The
  /// nested fields' columns are side by side (their cells then spell the record), or apart.
  static func csv(_ random: inout SplitMix64, count: Int) -> String {
    let widenAt = random.chance(0.5) ? random.int(0...count) : count + 1
    let brokenAt = random.chance(0.2) ? random.int(0...(count - 1)) : -1
    let apart = random.chance(0.3)
    var text =
      apart
      ? "id,camera.zoom,name,price,camera.mp,tags,released\n"
      : "id,name,price,camera.mp,camera.zoom,tags,released\n"
    for row in 0..<count {
      let name = random.pick([
        "Snow", "\"Space, Black\"", "\"Snow\"", "NA", "", "é", "\"a\"\"b\"", "\"NA\"",
      ])
      let price = row >= widenAt ? random.pick(["12.5", "cheap", "7"]) : "\(row % 40)"
      let zoom = random.pick(["", "2", "2.5", "2", "\"2\"", "NA"])
      let tags = random.pick(["5G;eSIM", "", "5G", "\"5G;eSIM\""])
      let released = random.pick(["2022-09-26", "2023-01-02", ""])
      let mp = random.pick(
        ["48", "12", "", "48", "\"48\"", "NA", "4,8"].map { $0 == "4,8" ? "\"4,8\"" : $0 })
      var line =
        apart
        ? "\(row),\(zoom),\(name),\(price),\(mp),\(tags),\(released)"
        : "\(row),\(name),\(price),\(mp),\(zoom),\(tags),\(released)"
      if row == brokenAt { line += ",extra" }
      text += line + "\n"
    }
    return text
  }

  /// What a load gave: each column's layout and each row's values and text, the warnings,
  /// the error.
  struct Outcome: Equatable {
    var columns: [String] = []
    var rows: [String] = []
    var warnings: [String] = []
    var error: String? = nil
  }

  /// A column's form: its layout without the number of distinct values (values of rows read
  /// again after the schema grew stay in the dictionary, and the schema grows in steps that
  /// depend on what the buffer holds: as many as it took).
  static func form(_ column: Column) -> String {
    String(column.layout.prefix { $0 != "," })
  }

  /// The load of `path` into columns.
  static func load(_ path: String, _ options: ReadOptions, blockSize: Int) -> Outcome {
    var outcome = Outcome()
    do throws(DataError) {
      let reader = try DataReader(
        path: path, format: nil, options: options, blockSize: blockSize, sample: 20)
      let loaded = try LoadedRecords(reading: reader, warn: { outcome.warnings.append($0) })
      outcome.columns = loaded.table.columns.map(Self.form)
      outcome.rows = loaded.records(Array(0..<loaded.count)).map {
        "\($0.values) \(String(decoding: $0.text, as: UTF8.self))"
      }
    } catch {
      outcome.error = error.description
    }
    return outcome
  }

  /// The same read as records, each record's values appended to a builder (and the rows read
  /// before the schema widened read again), in turn.
  static func reference(_ path: String, _ options: ReadOptions, blockSize: Int) -> Outcome {
    var outcome = Outcome()
    do throws(DataError) {
      let reader = try DataReader(
        path: path, format: nil, options: options, blockSize: blockSize, sample: 20)
      reader.readsInParts = false
      var (builder, records, stale) = (ColumnBuilder(), [DataRecord](), 0)
      while let block = try reader.next() {
        for record in block { builder.append(record.values) }
        records += block
        if reader.takeSchemaChanges().contains(where: { !$0.isNewField }) { stale = records.count }
        outcome.warnings += reader.takeWarnings().map(\.description)
      }
      outcome.warnings += reader.takeWarnings().map(\.description) + reader.conversionSummary
      for row in 0..<stale {
        builder.replace(row: row, with: reader.redecoded(records[row]).values)
      }
      let table = builder.finish(reader.schema)
      outcome.columns = table.columns.map(Self.form)
      outcome.rows = records.indices.map {
        "\(table.row($0)) \(String(decoding: records[$0].text, as: UTF8.self))"
      }
    } catch {
      outcome.error = error.description
    }
    return outcome
  }

  /// A random file of `format` (`jsonl`, `json` or `csv`) of 20 to 600 records, written as
  /// `name`, and the options it is read with, which follow from `seed`: a fixed type, the
  /// usual null texts, or none.
  static func file(
    _ random: inout SplitMix64, format: String, seed: UInt64, name: String
  ) throws -> (path: String, options: ReadOptions) {
    let count = random.int(20...600)
    let text =
      format == "csv"
      ? csv(&random, count: count) : data(&random, count: count, array: format == "json")
    let options =
      switch seed % 4 {
      case 0: ReadOptions(types: ["price": .int])
      case 1: ReadOptions(nullTexts: ReadOptions.usualNullTexts)
      case 2 where seed % 8 == 2: ReadOptions(types: ["price": .decimal])
      default: ReadOptions()
      }
    return (try DataFiles.write(text, "\(name).\(format)"), options)
  }

  /// Expects the load of `path` into columns to give what reading it as records gives (see
  /// ``load(_:_:blockSize:)`` and ``reference(_:_:blockSize:)``); returns whether the rows
  /// were the same (after the first difference, the rest say nothing more).
  static func loadsAsRecordsRead(
    _ path: String, _ options: ReadOptions, blockSize size: Int, _ label: String
  ) -> Bool {
    let expected = Self.reference(path, options, blockSize: size)
    let got = Self.load(path, options, blockSize: size)
    #expect(got.error == expected.error, "\(label), block size \(size)")
    #expect(got.warnings == expected.warnings, "\(label), block size \(size)")
    #expect(got.columns == expected.columns, "\(label), block size \(size)")
    let same = got.rows == expected.rows
    #expect(
      same,
      "\(label), block size \(size): \(zip(got.rows, expected.rows).first { $0 != $1 }.map { "\($0) against \($1)" } ?? "\(got.rows.count) rows against \(expected.rows.count)")"
    )
    return same
  }

  @Test(arguments: ["jsonl", "json", "csv"])
  func columnsReadWhatRecordsRead(format: String) throws {
    for seed in UInt64(1)...10 {
      var random = SplitMix64(seed: seed &* 104_729 &+ UInt64(format.utf8.count))
      let (path, options) = try Self.file(
        &random, format: format, seed: seed, name: "columns-\(seed)")
      for size in [64, 700, 1 << 20] {
        guard Self.loadsAsRecordsRead(path, options, blockSize: size, "seed \(seed)") else {
          return
        }
      }
    }
  }

  /// Numbers of more distinct values than a column codes go straight into columns of
  /// numbers: the table is still the records' own, whatever follows a number in its record
  /// (in JSON the key again, with a number, null or text; a value that grows the schema, so
  /// that the record is read again; an error), and numbers a column of decimals cannot hold
  /// exactly. In JSON Lines and CSV.
  @Test(arguments: ["jsonl", "csv"])
  func manyDistinctNumbersReadAsRecordsReadThem(format: String) throws {
    let header = ["id", "score", "big", "flag"]
    for seed in UInt64(1)...4 {
      var random = SplitMix64(seed: seed &* 7_919 &+ UInt64(format.count))
      let count = 4_300 + random.int(0...400)
      var lines = format == "csv" ? [header.joined(separator: ",")] : []
      for row in 0..<count {
        var cells = [
          "\(row)", "\(row).\(random.int(0...99))", "\(row &* 1_000 &+ random.int(0...999))",
          "\(random.chance(0.5))",
        ]
        var again: (Int, String)? = nil
        if row > 4_150 && random.chance(0.08) {
          again = random.pick([
            (1, "2.75"), (1, "null"), (1, "7"), (2, "12"), (2, "null"),
            (1, "9007199254740993"), (2, "1.5"), (3, "\"maybe\""), (1, "\"high\""),
          ])
        }
        if format == "csv" {
          // (A value in its own cell: null empty, text unquoted.)
          if let (column, value) = again {
            cells[column] = value == "null" ? "" : value.replacingOccurrences(of: "\"", with: "")
          }
          lines.append(cells.joined(separator: ","))
          continue
        }
        var fields = zip(header, cells).map { #""\#($0)": \#($1)"# }
        if let (column, value) = again { fields.append(#""\#(header[column])": \#(value)"#) }
        fields.shuffle(using: &random)
        lines.append("{" + fields.joined(separator: ", ") + "}")
      }
      if seed == 4 {
        lines[count - 50] =
          format == "csv" ? #"1,"2.5,3,true"# : #"{"id": 1, "score": 2.5 "big": 3}"#
      }
      let path = try DataFiles.write(
        lines.joined(separator: "\n") + "\n", "numbers-\(seed).\(format)")
      for size in [700, 64 << 10, 1 << 20] {
        guard Self.loadsAsRecordsRead(path, ReadOptions(), blockSize: size, "seed \(seed)") else {
          return
        }
      }
    }
  }

  @Test func valuesAreTakenByTheirSpellingWithoutBeingDecoded() throws {
    // A value spelled as one before is not decoded again: each part's coded columns
    // remember the spellings of their values.
    let text = (0..<3_000).map { #"{"color": "c\#($0 % 5)", "tags": ["a", "b\#($0 % 3)"]}"# }
      .joined(separator: "\n")
    let path = try DataFiles.write(text + "\n", "spellings.jsonl")
    let reader = try DataReader(path: path, format: nil)
    var (found, rows, takes) = (0, 0, 0)
    while try reader.nextRows({ part in
      rows += part.count
      takes += 1
      for slot in 0..<2 where part.builder.remembersSpellings(slot: slot) {
        let spelling = Array(slot == 0 ? #""c1""#.utf8 : #"["a", "b2"]"#.utf8)
        if spelling.withUnsafeBytes({ part.builder.code(spelled: .bytes($0), slot: slot) }) != nil {
          found += 1
        }
      }
    }) {}
    #expect(rows == 3_000)
    // (Each part read remembers both spellings.)
    #expect(takes >= 1 && found == 2 * takes)
  }
}
