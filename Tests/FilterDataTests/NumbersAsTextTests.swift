import FilterDSL
import Testing

@testable import FilterData

/// Text fields that hold numbers (JSON's `"533"`, a column of numbers with a marker such as
/// `-`, a number column that turns to text late): the schema says so, so that comparing them
/// with a number gets the fix that answers what was asked.
@Suite struct NumbersAsTextTests {
  static func schema(_ text: String, _ name: String, sample: Int? = nil) throws -> Schema {
    let path = try DataFiles.write(text, name)
    let reader = try DataReader(
      path: path, format: nil, blockSize: DataReader.defaultBlockSize,
      sample: sample ?? DataReader.sampleRecords)
    while try reader.next() != nil {}
    return reader.schema
  }

  @Test func numbersSentAsTextAreNumericText() throws {
    let lines =
      #"{"n": "533", "d": "2.5", "t": "red", "m": " 7 "}"# + "\n"
      + #"{"n": "-12", "d": "3", "t": "blue", "m": "8"}"# + "\n"
    let schema = try Self.schema(lines, "text.jsonl")
    #expect(schema.fields.map(\.type) == [.string, .string, .string, .string])
    #expect(schema.fields[0].numericText == NumericText(integers: true))
    #expect(schema.fields[1].numericText == NumericText(integers: false))
    #expect(schema.fields[2].numericText == nil)
    #expect(schema.fields[3].numericText == NumericText(integers: true))
  }

  @Test func aFewOtherTextsAmongNumbersAreNamed() throws {
    let csv = "delay,code,mixed\n5,-,a\n-,12,1\n7,3,b\nunknown,4,c\n9,5,2\n"
    let schema = try Self.schema(csv, "delays.csv")
    #expect(schema.fields[0].type == .string)
    #expect(schema.fields[0].numericText == NumericText(integers: true, others: ["-", "unknown"]))
    #expect(schema.fields[1].numericText == NumericText(integers: true, others: ["-"]))
    // More other texts than numbers: text, not numbers.
    #expect(schema.fields[2].numericText == nil)
  }

  @Test func usualNullTextsInATextColumnOfNumbersAreNamedToo() throws {
    // `NA` among numbers is null; among numbers and a dash the column is text, and both are named.
    let csv = "v\n1\nNA\n-\n4\n"
    let schema = try Self.schema(csv, "na.csv")
    #expect(schema.fields[0].numericText == NumericText(integers: true, others: ["-", "NA"]))
  }

  @Test func aNumberColumnThatTurnsToTextLateKeepsTheHint() throws {
    var csv = "price,name\n"
    for i in 0..<30 { csv += "\(i),x\(i)\n" }
    csv += "call us,y\n"
    let schema = try Self.schema(csv, "late.csv", sample: 10)
    #expect(schema.fields[0].type == .string)
    #expect(schema.fields[0].numericText == NumericText(integers: true))
    #expect(schema.fields[1].numericText == nil)
  }
}
