import FilterDSL
import Foundation
import Testing

@testable import FilterData

/// Texts that stand for "no value" (`NA`, `N/A`, ...), and types the user fixes.
@Suite struct NullTextTests {
  static func read(_ text: String, _ name: String, _ options: ReadOptions = ReadOptions())
    throws -> (DataReader, [[Value]])
  {
    let reader = try DataReader(path: try DataFiles.write(text, name), options: options)
    var values: [[Value]] = []
    while let block = try reader.next() { values += block.map(\.values) }
    return (reader, values)
  }

  @Test func usualNullTextsAreNullWhereTheFieldIsNotText() throws {
    let csv = "name,code,n\nAnn,NA,5\nBob,NA,6\nCy,US,7\nDi,NA,8\nEd,NA,9\nFy,NA,1\n"
    let (reader, values) = try Self.read(csv, "na.csv")
    #expect(reader.schema.fields.map(\.type) == [.string, .string, .int])
    // No other column uses NA as null: it is a value (Namibia), and among the known values.
    #expect(values.map { $0[1] }.filter { $0 == .string("NA") }.count == 5)
    #expect(reader.schema.fields[1].knownValues == ["NA", "US"])
    #expect(reader.nullMarkers.isEmpty)
  }

  /// A usual null text that stands for null in a column of numbers is the file's null
  /// marker: null in its text columns too, as pandas and R read it (`tailnum is null` found
  /// none of 2,512 `NA` tail numbers among flights whose delays were `NA`).
  @Test func theFilesNullMarkerIsNullInItsTextColumnsToo() throws {
    let csv = "name,score,code\nAnn,5,NA\nBob,NA,NA\nCy,7,US\nDi,N/A,NA\nEd,#N/A,NA\nFy,9,NA\n"
    let (reader, values) = try Self.read(csv, "na.csv")
    #expect(reader.schema.fields.map(\.type) == [.string, .int, .string])
    #expect(reader.schema.fields[1].isOptional && reader.schema.fields[2].isOptional)
    #expect(values.map { $0[1] } == [.int(5), .null, .int(7), .null, .null, .int(9)])
    #expect(values.map { $0[2] } == [.null, .null, .string("US"), .null, .null, .null])
    #expect(reader.nullMarkers == ["#N/A", "N/A", "NA"])
    // The known values of text no longer count the marker (a small file: every value is
    // known); the number column has none.
    #expect(reader.schema.fields[2].knownValues == ["US"])
    #expect(reader.schema.fields[1].knownValues == nil)
    // JSON the same, and a text field that holds only the marker has no values.
    let lines =
      #"{"delay": 5, "tail": "N1", "note": "NA"}"# + "\n" + #"{"delay": "NA", "tail": "NA"}"#
    let (json, jsonValues) = try Self.read(lines, "na.jsonl")
    #expect(json.schema.fields.map(\.type) == [.int, .string, .null])
    #expect(jsonValues == [[.int(5), .string("N1"), .null], [.null, .null, .null]])
    #expect(
      SchemaOutline.text(json.schema, nullMarkers: json.nullMarkers).contains(
        "('NA' read as null in every field: the file's null marker; --null names others)"))
  }

  @Test func jsonStringsThatMeanNullInANumberField() throws {
    let lines =
      #"{"p":5,"d":"2022-09-16"}"# + "\n" + #"{"p":"N/A","d":"NA"}"# + "\n"
      + #"{"p":7,"d":"2022-09-18"}"#
    let (reader, values) = try Self.read(lines, "na.jsonl")
    #expect(reader.schema.fields.map(\.type) == [.int, .date])
    #expect(values[1] == [.null, .null])
  }

  @Test func aLateNullTextDoesNotGrowTheField() throws {
    var text = "n\n"
    for i in 0..<10_000 { text += "\(i)\n" }
    text += "NA\n"
    let (reader, values) = try Self.read(text, "late.csv")
    #expect(reader.schema.fields[0].type == .int)
    #expect(values.count == 10_001 && values.last == [.null])
    #expect(reader.takeSchemaChanges().isEmpty)
  }

  @Test func namedNullTextsAreNullEverywhere() throws {
    let (reader, values) = try Self.read(
      "a,b\n-,x\n1,-\n2,y\n", "dash.csv", ReadOptions(nullTexts: ["-"]))
    #expect(reader.schema.fields.map(\.type) == [.int, .string])
    #expect(values == [[.null, .string("x")], [.int(1), .null], [.int(2), .string("y")]])
  }

  @Test func aHeaderWithoutRowsNamesFieldsWithNoValues() throws {
    let (reader, values) = try Self.read("a,b\n", "header.csv")
    #expect(reader.schema.names == ["a", "b"])
    #expect(reader.schema.fields.map(\.type) == [.null, .null])
    #expect(values.isEmpty && !reader.isEmpty)
  }

  @Test func durationsAreReadFromTextInBothSpellings() throws {
    let (reader, values) = try Self.read(
      "wait,label\n45s,a\nPT1M30S,b\n-1h30m,c\nP2DT0.5S,d\nNA,e\n", "wait.csv")
    #expect(reader.schema.fields.map(\.type) == [.duration, .string])
    let seconds: Int64 = 1_000_000_000
    #expect(
      values.map { $0[0] } == [
        .duration(TimeSpan(nanoseconds: 45 * seconds)),
        .duration(TimeSpan(nanoseconds: 90 * seconds)),
        .duration(TimeSpan(nanoseconds: -5_400 * seconds)),
        .duration(TimeSpan(nanoseconds: 172_800 * seconds + seconds / 2)), .null,
      ])
    // Years and months have no fixed length; text that is not a duration makes the column text.
    for text in ["P1Y", "P1M", "PT", "P", "1.5h", "45", "PT1H2D", "1h 30m"] {
      #expect(Value.duration(Array(text.utf8)) == nil, "\(text)")
    }
  }

  @Test func fixedTypesHoldAndCountWhatDoesNotConvert() throws {
    let (reader, values) = try Self.read(
      "zip,n\n01234,1\n02134,x\n9,y\n", "zip.csv",
      ReadOptions(types: ["zip": .string, "n": .int]))
    #expect(reader.schema.fields.map(\.type) == [.string, .int])
    #expect(values.map { $0[0] } == [.string("01234"), .string("02134"), .string("9")])
    #expect(values.map { $0[1] } == [.int(1), .null, .null])
    #expect(reader.conversionFailures == ["n": 2])
    // Reading a record again (after the schema grew) does not count its failures twice.
    let record = DataRecord(values: [], text: ArraySlice(Array("02134,x".utf8)))
    _ = reader.redecoded(record)
    #expect(reader.conversionFailures == ["n": 2])
    #expect(reader.schemaVersion == 0)
    let warnings = reader.takeWarnings()
    #expect(warnings.count == 1)
    #expect(warnings.first?.description.contains("zip.csv:3:7\n") == true)
  }
}
