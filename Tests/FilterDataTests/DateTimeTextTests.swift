import FilterDSL
import Testing

@testable import FilterData

/// Date-times written with a space for the `T` (`2010-03-24 09:51:00`: SQL databases, pandas
/// and most CSV exports write them so) are date-times wherever flt reads data.
@Suite struct DateTimeTextTests {
  static let t0951 = Value.dateTime(Instant(seconds: 1_269_424_260))

  @Test func aSpaceMayStandForTheT() {
    #expect(Value.isoDate(Array("2010-03-24 09:51:00".utf8)) == Self.t0951)
    #expect(Value.isoDate(Array("2010-03-24 09:51".utf8)) == Self.t0951)
    #expect(
      Value.isoDate(Array("2010-03-24 11:51:00.25+02".utf8))
        == .dateTime(Instant(seconds: 1_269_424_260, nanoseconds: 250_000_000)))
    // Not a date-time: two spaces, a space and no time, a time cut short.
    for text in ["2010-03-24  09:51:00", "2010-03-24 ", "2010-03-24 09", "2010-03-24 9:51"] {
      #expect(Value.isoDate(Array(text.utf8)) == nil, "\(text)")
    }
  }

  @Test func columnsOfThemAreInferred() throws {
    let csv = "id,at\n1,2010-03-24 09:51:00\n2,2010-03-25 10:00:00.5\n3,\n"
    let (reader, values) = try NullTextTests.read(csv, "times.csv")
    #expect(reader.schema.fields.map(\.type) == [.int, .dateTime])
    #expect(values[0][1] == Self.t0951)
    let lines = #"{"at": "2010-03-24 09:51:00"}"# + "\n" + #"{"at": "2010-03-24T09:51:00Z"}"#
    let (json, jsonValues) = try NullTextTests.read(lines, "times.jsonl")
    #expect(json.schema.fields.map(\.type) == [.dateTime])
    #expect(jsonValues == [[Self.t0951], [Self.t0951]])
  }

  @Test func aFixedTypeReadsThem() throws {
    let options = ReadOptions(types: ["at": .dateTime])
    let (_, values) = try NullTextTests.read(
      #"{"at": "2010-03-24 09:51:00", "n": 1}"# + "\n", "fixed.jsonl", options)
    #expect(values == [[Self.t0951, .int(1)]])
    let (_, csv) = try NullTextTests.read("at\n2010-03-24 09:51:00\n", "fixed.csv", options)
    #expect(csv == [[Self.t0951]])
  }
}

/// `--type NAME=int|double|bool` converts text in JSON as it does in CSV (`"533"` is 533).
@Suite struct FixedTypesOfTextTests {
  @Test func jsonTextConvertsToAFixedType() throws {
    let options = ReadOptions(types: ["n": .int, "d": .double, "b": .bool, "s": .int])
    let lines =
      #"{"n": "533", "d": "2.5", "b": "true", "s": 7}"# + "\n"
      + #"{"n": "x", "d": "3", "b": "no", "s": "-4"}"# + "\n"
      + #"{"n": "5\u0033", "d": 1.5, "b": false, "s": null}"# + "\n"
    let (reader, values) = try NullTextTests.read(lines, "fixed.jsonl", options)
    #expect(reader.schema.fields.map(\.type) == [.int, .double, .bool, .int])
    #expect(
      values == [
        [.int(533), .double(2.5), .bool(true), .int(7)],
        // "x" and "no" do not convert: null, and counted.
        [.null, .int(3), .null, .int(-4)],
        // Text with escapes is not converted (as a CSV cell in quotes with escapes is not).
        [.null, .double(1.5), .bool(false), .null],
      ])
    #expect(reader.conversionFailures == ["b": 1, "n": 2])
    let csv = try NullTextTests.read("n,d\n533,2.5\nx,3\n", "fixed.csv", options).1
    #expect(csv == [[.int(533), .double(2.5)], [.null, .int(3)]])
  }

  /// `--type price=decimal` reads numbers exactly, from their digits: their scale kept, an
  /// exponent applied, text that spells one converted; beyond 38 digits null and counted.
  @Test func numbersReadAsExactDecimals() throws {
    let options = ReadOptions(types: ["p": .decimal])
    func d(_ text: String) -> Value { ExactDecimal(scientific: text).map(Value.decimal) ?? .null }
    let lines =
      #"{"p": 2.55}"# + "\n" + #"{"p": "0.30"}"# + "\n" + #"{"p": 1.5e3}"# + "\n"
      + #"{"p": 12345678901234567890123456789012345678901}"# + "\n" + #"{"p": -7}"# + "\n"
    let (reader, values) = try NullTextTests.read(lines, "decimals.jsonl", options)
    #expect(reader.schema.fields.map(\.type) == [.decimal])
    #expect(values == [[d("2.55")], [d("0.30")], [d("1500")], [.null], [d("-7")]])
    #expect(values[1].first?.description == "0.30")
    #expect(reader.conversionFailures == ["p": 1])
    let csv = try NullTextTests.read("p\n2.55\n1.5e3\nx\n0.10\n", "decimals.csv", options).1
    #expect(csv == [[d("2.55")], [d("1500")], [.null], [d("0.1")]])
    #expect(csv[3].first?.description == "0.10")
    // Exact where a double is not: 0.1 * 3 is 0.30.
    let path = try DataFiles.write("p\n0.1\n0.2\n", "decimals-sum.csv")
    let matches = QueryingByColumnTests.run(
      "p * 3 == 0.3 or p + 0.1 == 0.3", path, options, blockSize: 1 << 16, sample: 100,
      byColumn: true)
    #expect(matches.records.count == 2 && matches.error == nil)
  }

  /// Text that is a time of day in every record (`22:00`, `09:30:15.5`) is a column of times
  /// in CSV and JSON; one that is not (`9:30`, a word) keeps the column text; `--type t=time`
  /// converts, and what does not convert is null and counted.
  @Test func timesOfDayAreInferred() throws {
    func time(_ hour: Int, _ minute: Int, _ second: Int = 0, _ nanoseconds: Int64 = 0) -> Value {
      TimeOfDay(hour: hour, minute: minute, second: second, nanoseconds: nanoseconds).map(
        Value.time) ?? .null
    }
    let (reader, values) = try NullTextTests.read(
      "id,opens\n1,22:00\n2,09:30:15.5\n3,\n4,24:00:00\n", "opens.csv")
    #expect(reader.schema.fields.map(\.type) == [.int, .time])
    #expect(
      values.map { $0[1] } == [time(22, 0), time(9, 30, 15, 500_000_000), .null, time(24, 0)])
    let lines = #"{"at": "06:15"}"# + "\n" + #"{"at": "23:59:59.999999999"}"# + "\n"
    let (json, jsonValues) = try NullTextTests.read(lines, "opens.jsonl")
    #expect(json.schema.fields.map(\.type) == [.time])
    #expect(jsonValues == [[time(6, 15)], [time(23, 59, 59, 999_999_999)]])
    for text in ["9:30", "22:00 PM", "25:00", "noon"] {
      let (mixed, _) = try NullTextTests.read("at\n22:00\n\(text)\n", "mixed.csv")
      #expect(mixed.schema.fields.map(\.type) == [.string], "\(text)")
    }
    let options = ReadOptions(types: ["at": .time])
    let (fixed, fixedValues) = try NullTextTests.read(
      #"{"at": "22:00"}"# + "\n" + #"{"at": "late"}"# + "\n", "fixed-times.jsonl", options)
    #expect(fixedValues == [[time(22, 0)], [.null]])
    #expect(fixed.conversionFailures == ["at": 1])
    let csv = try NullTextTests.read("at\n07:05:09\n", "fixed-times.csv", options).1
    #expect(csv == [[time(7, 5, 9)]])
  }
}
