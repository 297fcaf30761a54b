import FilterDSL
import Testing

@testable import FilterData

/// Integers beyond 2^53 keep their digits: a field of numbers with one is a field of exact
/// decimals (a double reads `9007199254740993` as `...992`, `12345678901234567890` as
/// `1.2345678901234567e+19`), in JSON and CSV, inferred or grown to after the sample.
@Suite struct WideNumbersTests {
  func read(_ text: String, _ name: String) throws -> (Schema, [[Value]]) {
    let reader = try DataReader(path: try DataFiles.write(text, name))
    var rows: [[Value]] = []
    while let block = try reader.next() { rows += block.map(\.values) }
    return (reader.schema, rows)
  }

  func decimal(_ text: String) -> Value {
    guard let exact = ExactDecimal(text) else { preconditionFailure("not a decimal: \(text)") }
    return .decimal(exact)
  }

  @Test func integersBeyondSixtyFourBitsAreDecimals() throws {
    let (json, jsonRows) = try read("{\"a\":12345678901234567890}\n{\"a\":1}\n", "big.jsonl")
    #expect(json.fields.map(\.type) == [.decimal])
    #expect(jsonRows == [[decimal("12345678901234567890")], [decimal("1")]])
    let (csv, csvRows) = try read("a\n12345678901234567890\n-1\n", "big.csv")
    #expect(csv.fields.map(\.type) == [.decimal])
    #expect(csvRows == [[decimal("12345678901234567890")], [decimal("-1")]])
  }

  @Test func integersBeyondADoublesDigitsAmongDoublesAreDecimals() throws {
    let (schema, rows) = try read(
      "{\"a\":1}\n{\"a\":2.5}\n{\"a\":9007199254740993}\n", "mixed.jsonl")
    #expect(schema.fields.map(\.type) == [.decimal])
    #expect(rows.map { $0[0] } == [decimal("1"), decimal("2.5"), decimal("9007199254740993")])
    let (csv, _) = try read("a\n1\n2.5\n-9007199254740993\n", "mixed.csv")
    #expect(csv.fields.map(\.type) == [.decimal])
  }

  @Test func fieldsADoubleHoldsStayDoubles() throws {
    // Integers within 64 bits stay integers; 2^53 itself and ordinary doubles stay doubles;
    // a number no decimal holds (1e300) keeps the field a field of doubles.
    let (ints, _) = try read("{\"a\":9007199254740993}\n{\"a\":1}\n", "ints.jsonl")
    #expect(ints.fields.map(\.type) == [.int])
    let (doubles, _) = try read(
      "{\"a\":9007199254740992}\n{\"a\":0.30000000000000004}\n", "doubles.jsonl")
    #expect(doubles.fields.map(\.type) == [.double])
    let (huge, _) = try read("{\"a\":12345678901234567890}\n{\"a\":1e300}\n", "huge.jsonl")
    #expect(huge.fields.map(\.type) == [.double])
  }

  @Test func aWideIntegerAfterTheSampleGrowsAnIntegerField() throws {
    let text = SchemaGrowthTests.jsonLines(20_000, then: #"{"id":1,"price":98765432109876543210}"#)
    let (schema, rows) = try read(text, "late-wide.jsonl")
    #expect(schema.fields.map(\.type) == [.int, .decimal])
    #expect(rows.last?[1] == decimal("98765432109876543210"))
  }

  @Test func theSpellingTestsAreExact() {
    func wide(_ text: String) -> Bool {
      Array(text.utf8).withUnsafeBufferPointer { NumberText.isWideInteger($0, 0, $0.count) }
    }
    func fits(_ text: String) -> Bool {
      Array(text.utf8).withUnsafeBufferPointer { NumberText.fitsDecimal($0, 0, $0.count) }
    }
    #expect(!wide("9007199254740992") && wide("9007199254740993") && wide("-9007199254740993"))
    #expect(wide("123456789012345678901234567890") && !wide("900719925474099.3"))
    #expect(!wide("1e20") && !wide("-12"))
    #expect(fits("1.5e3") && fits(String(repeating: "9", count: 38)) && fits("0.000123"))
    #expect(!fits("1e300") && !fits(String(repeating: "9", count: 39)))
  }
}
