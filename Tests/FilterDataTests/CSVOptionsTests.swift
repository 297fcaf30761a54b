import FilterDSL
import Testing

@testable import FilterData

/// CSV as spreadsheets and other tools write it: another delimiter (`;` from European
/// Excel, sniffed from the header when not named), no header row.
@Suite struct CSVOptionsTests {
  @Test func aSemicolonFileIsSniffed() throws {
    let csv = "name;price;city\nAnn;3;\"Köln; Nord\"\nBob;7;Paris\n"
    let (reader, values) = try NullTextTests.read(csv, "eu.csv")
    #expect(reader.separator == UInt8(ascii: ";"))
    #expect(reader.schema.names == ["name", "price", "city"])
    #expect(
      values == [
        [.string("Ann"), .int(3), .string("Köln; Nord")],
        [.string("Bob"), .int(7), .string("Paris")],
      ])
  }

  @Test(arguments: [
    ("a|b\n1|x\n", UInt8(ascii: "|")), ("a\tb\n1\tx\n", 0x09),
    // A comma in the header wins; a semicolon inside quotes counts for nothing.
    ("a;b,c\n1;2,3\n", UInt8(ascii: ",")), ("\"a;b\",c\n1,2\n", UInt8(ascii: ",")),
    ("single\n1\n", UInt8(ascii: ",")),
  ])
  func theDelimiterIsTheHeadersOwn(_ csv: String, _ expected: UInt8) throws {
    let (reader, _) = try NullTextTests.read(csv, "sniff.csv")
    #expect(reader.separator == expected, "\(csv)")
  }

  /// The first line is read whole before it is sniffed: the delimiter does not depend on
  /// how much of the line one read brought (found by the readers fuzzer: a tab far along
  /// the line was seen at one block size and not at another).
  @Test(arguments: [1, 3, 7, 32, 4096])
  func theSniffDoesNotDependOnTheBlockSize(_ blockSize: Int) throws {
    let csv = "\"a,b\";" + String(repeating: "x", count: 100) + "\tc;d\n1;2\t3;4\n"
    let path = try DataFiles.write(csv, "long.csv")
    let reader = try DataReader(path: path, format: nil, blockSize: blockSize)
    #expect(reader.separator == UInt8(ascii: ";"), "block size \(blockSize)")
    #expect(reader.schema.names.count == 3)
  }

  @Test func aNamedDelimiterIsUsed() throws {
    let (reader, values) = try NullTextTests.read(
      "a,b|c\n1,2|3\n", "named.csv", ReadOptions(delimiter: UInt8(ascii: "|")))
    #expect(reader.schema.names == ["a,b", "c"])
    #expect(values == [[.string("1,2"), .int(3)]])
    #expect(ReadOptions.delimiter(named: "tab") == 0x09)
    #expect(ReadOptions.delimiter(named: ";") == UInt8(ascii: ";"))
    #expect(ReadOptions.delimiter(named: "\"") == nil && ReadOptions.delimiter(named: ";;") == nil)
  }

  /// Without a header the first row is a record (it was taken as the names, and lost).
  @Test func withoutAHeaderTheFirstRowIsARecord() throws {
    let options = ReadOptions(header: false)
    let (reader, values) = try NullTextTests.read("1,x\n2,y\n", "rows.csv", options)
    #expect(reader.schema.names == ["column1", "column2"])
    #expect(values.map { $0[0] } == [.int(1), .int(2)])
    let (tsv, tsvValues) = try NullTextTests.read("a\tb\n", "rows.tsv", options)
    #expect(
      tsv.schema.names == ["column1", "column2"] && tsvValues == [[.string("a"), .string("b")]])
    // The first row sets the width, as a header does.
    #expect(throws: DataError.self) { try NullTextTests.read("1,x\n2,y,z\n", "wide.csv", options) }
  }
}

/// What a file's extension says it holds.
@Suite struct DataFormatTests {
  @Test(arguments: [
    ("a.json", DataFormat.json), ("cities.geojson", .json), ("A.GEOJSON.gz", .json),
    ("a.ndjson", .jsonl), ("a.jsonl", .jsonl), ("a.csv", .csv), ("a.tab", .tsv), ("x.tsv.gz", .tsv),
  ])
  func extensions(_ path: String, _ format: DataFormat) {
    #expect(DataFormat(path: path) == format, "\(path)")
  }

  @Test func unknownExtensionsAreNone() {
    #expect(DataFormat(path: "a.xml") == nil && DataFormat(path: "dir.json/file") == nil)
  }
}
