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

  /// `name, price, note`: spaces after the commas are not data (pandas' `skipinitialspace`).
  /// Skipped when the header has one after every comma; a quoted field after a space is
  /// quoted (it was an error: a quote inside a field that does not start with one).
  @Test func spacesAfterEveryCommaOfTheHeaderAreSkipped() throws {
    let csv = "name, price, note\nA, 1, \"x, y\"\nB,  2,plain\n"
    let (reader, values) = try NullTextTests.read(csv, "spaced.csv")
    #expect(reader.skipsInitialSpace)
    #expect(reader.schema.names == ["name", "price", "note"])
    #expect(reader.schema.fields.map(\.type) == [.string, .int, .string])
    #expect(
      values == [
        [.string("A"), .int(1), .string("x, y")], [.string("B"), .int(2), .string("plain")],
      ])
    // Output reads the cells back as the reader read them.
    let out = OutputSink()
    let writer = RecordWriter(.jsonl, for: reader, select: nil, to: out)
    let again = try DataReader(path: try DataFiles.write(csv, "spaced2.csv"))
    while let block = try again.next() { block.forEach(writer.write) }
    writer.finish()
    #expect(
      out.text == #"{"name":"A","price":1,"note":"x, y"}"# + "\n"
        + #"{"name":"B","price":2,"note":"plain"}"# + "\n")
  }

  @Test(arguments: ["a,b, c\n1, 2,3\n", "a,b\n1, 2\n", "a\tb\n1\t 2\n"])
  func otherwiseSpacesAreData(_ text: String) throws {
    let (reader, values) = try NullTextTests.read(text, text.contains("\t") ? "s.tsv" : "s.csv")
    #expect(!reader.skipsInitialSpace)
    #expect(values.first?.contains(.string(" 2")) == true, "\(values)")
  }

  @Test func theOptionSaysWhatTheHeaderDoesNot() throws {
    let skip = ReadOptions(skipsInitialSpace: true)
    let (tsv, tsvValues) = try NullTextTests.read("a\tb\n1\t 2\n", "skip.tsv", skip)
    #expect(tsv.skipsInitialSpace && tsvValues == [[.int(1), .int(2)]])
    let keep = ReadOptions(skipsInitialSpace: false)
    let (csv, csvValues) = try NullTextTests.read("a, b\n1, x\n", "keep.csv", keep)
    #expect(csv.schema.names == ["a", " b"] && csvValues == [[.int(1), .string(" x")]])
    #expect(ReadOptions.skipsInitialSpace(named: "skip") == true)
    #expect(ReadOptions.skipsInitialSpace(named: "KEEP") == false)
    #expect(ReadOptions.skipsInitialSpace(named: "trim") == nil)
  }

  /// The header is read whole before its spaces are looked at, whatever the block size.
  @Test(arguments: [1, 2, 5, 64])
  func theSpacesSniffDoesNotDependOnTheBlockSize(_ blockSize: Int) throws {
    let csv = "first, second, third\n1, 2, 3\n"
    let reader = try DataReader(
      path: try DataFiles.write(csv, "b\(blockSize).csv"), format: nil, blockSize: blockSize)
    #expect(reader.skipsInitialSpace && reader.schema.names == ["first", "second", "third"])
  }

  /// TSV as its readers expect it: a record a line, no quotes; a tab, a line break and a
  /// backslash in a value escaped (`\t`, `\n`, `\\`), and read back by flt's TSV reader.
  @Test func tsvIsWrittenWithEscapesAndReadBack() throws {
    let schema = Schema([.init("path", .string), .init("note", .string)])
    let values: [[Value]] = [
      [.string("C:\\temp\tx"), .string("line\none\r")],
      [.string("\"quoted\" start"), .string("a \"b\" c")],
      [.string("C:\\Users"), .null],
    ]
    let out = OutputSink()
    let writer = RecordWriter(.tsv, columns: schema.names, select: nil, to: out)
    for row in values { writer.write(DataRecord(row, schema: schema)) }
    writer.finish()
    #expect(
      out.text == "path\tnote\n" + #"C:\\temp\tx"# + "\t" + #"line\none\r"# + "\n"
        + #""""quoted"" start""# + "\t" + #"a "b" c"# + "\n" + #"C:\\Users"# + "\t\n")
    // One record a line, whatever the values hold.
    #expect(out.text.split(separator: "\n").count == 4)
    let (reader, read) = try NullTextTests.read(out.text, "escaped.tsv")
    #expect(reader.schema.names == ["path", "note"])
    #expect(read == values)
  }

  /// A backslash that starts no escape is itself; CSV (and TSV read as CSV) reads none.
  @Test func onlyTheFourEscapesAreRead() throws {
    let (_, tsv) = try NullTextTests.read("a\n" + #"C:\Users\x\"# + "\n", "plain.tsv")
    #expect(tsv == [[.string(#"C:\Users\x\"#)]])
    let (_, csv) = try NullTextTests.read("a\n" + #"x\ty"# + "\n", "plain.csv")
    #expect(csv == [[.string(#"x\ty"#)]])
  }

  /// Blank lines are passed for good: 200 MB of them took 112 s and 420 MB (each refill of
  /// the buffer scanned them all again, and kept them); now the buffer stays small, and the
  /// lines after them are counted right whatever the block size.
  @Test(arguments: [64, 4096])
  func blankLinesAreNotKept(blockSize: Int) throws {
    let csv = "a,b\n" + String(repeating: "\n", count: 50_000) + "1,2\n\r\n3,x\"\n"
    let reader = try DataReader(
      path: try DataFiles.write(csv, "blank\(blockSize).csv"), format: nil, blockSize: blockSize)
    var values: [[Value]] = []
    let error = try #require(throws: DataError.self) {
      while let block = try reader.next() { values += block.map(\.values) }
    }
    #expect(values == [[.int(1), .int(2)]])
    #expect(error.line == 50_004)
    #expect(reader.buffer.count < 64 << 10, "\(reader.buffer.count) bytes kept")
  }
}
