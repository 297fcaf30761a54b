import FilterDSL
import Foundation
import Testing

@testable import FilterData

/// The reader gives the same records whatever its block size, so records cut by a block
/// boundary are read like any other; bad input gives an error, never a crash.
@Suite struct DataReaderTests {
  @Test(arguments: ["examples/phones.json", "examples/phones.csv"])
  func blockSizeDoesNotChangeTheRecords(example: String) throws {
    let path = DataFiles.root.appendingPathComponent(example).path
    let whole = try DataFiles.read(path)
    #expect(whole.values.count == 111)
    for size in [1, 7, 100, 4096] {
      #expect(try DataFiles.read(path, blockSize: size) == whole, "block size \(size)")
    }
  }

  @Test func hostileCSVAcrossBlocks() throws {
    let text = "\u{FEFF}a,b\r\n\"x\r\ny\",\"q\"\"\"\r\n,2\r\n\"\",3"
    let path = try DataFiles.write(text, "h.csv")
    let whole = try DataFiles.read(path)
    #expect(whole.values.count == 3)
    #expect(whole.values[0] == [.string("x\r\ny"), .string("q\"")])
    // Column b mixes text and numbers, so it is text.
    #expect(whole.values[1] == [.null, .string("2")])
    // A quoted empty cell in a text column is empty text; an unquoted one is null.
    #expect(whole.values[2] == [.string(""), .string("3")])
    for size in 1...12 { #expect(try DataFiles.read(path, blockSize: size) == whole) }
  }

  @Test func rootRecordsAreTheSameAtEveryBlockSize() throws {
    let text = #"{"meta":{"note":"a, [b]"},"data":{"items":[{"a":1},{"a":[2]},{"a":3}]},"z":[]}"#
    let path = try DataFiles.write(text, "root.json")
    var seen: [[[Value]]] = []
    for size in [1, 3, 7, 4096] {
      let reader = try DataReader(
        path: path, format: nil, options: ReadOptions(root: ["data", "items"]), blockSize: size)
      var values: [[Value]] = []
      while let block = try reader.next() { values += block.map(\.values) }
      seen.append(values)
    }
    #expect(seen.allSatisfy { $0 == seen[0] })
    #expect(seen[0].count == 3)
  }

  @Test func inferredTypes() throws {
    let lines = [
      #"{"i":1,"d":1,"m":1,"s":"a","t":"2022-09-16","dt":"2022-09-16T10:00:00Z","b":true,"n":null,"o":{"x":1},"l":[1,2]}"#,
      #"{"i":2,"d":2.5,"m":"two","s":"b","t":"2022-09-17","dt":"2022-09-16T11:00:00+02:00","b":false,"n":null,"o":{"x":2,"y":"z"},"l":[]}"#,
      #"{"i":3,"d":3,"m":3,"s":"c","t":"2022-09-18","dt":"2022-09-16T12:00:00Z","b":true}"#,
    ]
    let path = try DataFiles.write(lines.joined(separator: "\n"), "types.jsonl")
    let contents = try DataFiles.read(path)
    let types = contents.schema.fields.map { ($0.name, $0.type, $0.isOptional) }
    #expect(types.map(\.0) == ["i", "d", "m", "s", "t", "dt", "b", "n", "o", "l"])
    #expect(types.map(\.1)[0..<7] == [.int, .double, .string, .string, .date, .dateTime, .bool])
    // Null in every record: no evidence of a type.
    #expect(types[7].1 == .null && types[7].2)
    #expect(types[8].2 && types[9].2)
    #expect(types[9].1 == .list(.int))
    guard case .record(let inner) = types[8].1 else {
      Issue.record("o is not a record")
      return
    }
    #expect(inner.fields.map(\.name) == ["x", "y"])
    #expect(inner.fields[1].isOptional)
    // Mixed columns are text, numbers keeping their spelling.
    #expect(contents.values[0][2] == .string("1"))
    #expect(contents.values[1][2] == .string("two"))
  }

  /// Random damage to valid files: every outcome is a result or an error with a line, the
  /// same at every block size.
  @Test(arguments: ["examples/phones.json", "examples/phones.csv"])
  func damagedInputNeverCrashes(example: String) throws {
    let original = try [UInt8](
      Data(contentsOf: DataFiles.root.appendingPathComponent(example)).prefix(3000))
    let name = URL(fileURLWithPath: example).lastPathComponent
    var state: UInt64 = 99
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let specials: [UInt8] = Array("\"{}[],:\\\n\r 0e-.".utf8) + [0x00, 0xFF, 0xC3]
    var failures = 0
    for _ in 0..<150 {
      var bytes = original
      for _ in 0..<(1 + next(3)) {
        let at = next(bytes.count)
        switch next(3) {
        case 0: bytes[at] = specials[next(specials.count)]
        case 1: bytes.insert(specials[next(specials.count)], at: at)
        default: bytes.removeSubrange(at..<Swift.min(bytes.count, at + next(8) + 1))
        }
      }
      let path = try DataFiles.write(bytes, name)
      let big = DataFiles.outcome(path, blockSize: 1 << 20)
      let small = DataFiles.outcome(path, blockSize: 13)
      #expect(big == small)
      if case .failure(let message) = big {
        failures += 1
        #expect(message.contains(" --> \(path):"), "\(message)")
      }
      try? FileManager.default.removeItem(atPath: path)
    }
    #expect(failures > 0)
  }
}

/// Wide CSV headers are read in linear time (found by an audit: 73,016 columns took 118 s,
/// each column's name looked up by a scan of those before it, per record).
@Suite struct WideCSVTests {
  @Test func aWideHeaderWithNestedNamesReadsEveryColumn() throws {
    let count = 20_000
    var names = (0..<count).map { "c\($0)" }
    names += ["n.a", "n.b"]  // a nested record
    let values = (0..<count).map(String.init) + ["1", "2"]
    let text = names.joined(separator: ",") + "\n" + values.joined(separator: ",") + "\n"
    let path = try DataFiles.write(text, "wide.csv")
    let contents = try DataFiles.read(path)
    #expect(contents.schema.fields.count == count + 1)
    #expect(contents.schema.fields.last?.name == "n")
    let row = try #require(contents.values.first)
    #expect(row[19_999] == .int(19_999) && row[5] == .int(5))
    #expect(row[count] == .record([.int(1), .int(2)]))
  }
}

/// An error on a line longer than a read block names its own line and column (the audit saw
/// `1:300317` for column 8,688,907; here a 200 KB line read in 16 KB blocks).
@Suite struct LongLineErrorTests {
  @Test(arguments: [16 << 10, 64 << 10, 4 << 20])
  func theColumnIsCountedFromTheLinesStart(blockSize: Int) throws {
    var text = ""
    for _ in 0..<1_000 { text += "{\"a\":\"y\"}\n" }
    text += "{\"a\":\"" + String(repeating: "x", count: 200_000) + "\", \"b\": }\n"
    let path = try DataFiles.write(text, "long.jsonl")
    var message = ""
    do {
      _ = try DataFiles.read(path, blockSize: blockSize)
    } catch {
      message = error.description
    }
    // `{"a":"` is 6 characters, the x's 200,000, `", "b": ` 8: the `}` is column 200,015.
    #expect(message.contains("long.jsonl:1001:200015"), "\(message.prefix(200))")
  }
}

/// Input with no record end in sight stops with an error, never grows memory without bound
/// (found by an audit: `/dev/zero` read as CSV grew until the system killed flt). JSON
/// rejects such bytes at once; CSV takes them as text and has no other limit.
@Suite struct RecordLengthTests {
  @Test(arguments: [DataFormat.csv, .tsv])
  func aHeaderWithNoEndIsAnError(format: DataFormat) throws {
    let path = try DataFiles.write([UInt8](repeating: 0, count: 300_000), "zeros")
    #expect {
      _ = try DataReader(path: path, format: format, blockSize: 4096, maxRecordBytes: 100_000)
    } throws: { error in
      "\(error)".contains("has a record longer than 0 MiB with no end in sight")
    }
  }

  /// Blank lines are not a record: any number of them is read through (300 MB of them took
  /// 418 MB and then failed as "a record longer than 256 MiB").
  @Test(arguments: [DataFormat.jsonl, .json])
  func blankLinesAreNotARecord(format: DataFormat) throws {
    let blanks = String(repeating: "\n", count: 300_000)
    let (one, two) = ("{\"a\": 1}", "{\"a\": 2}")
    let texts =
      format == .json
      ? [
        ("[" + blanks + "]", 0),
        (blanks + "[" + blanks + one + blanks + "," + blanks + two + blanks + "]" + blanks, 2),
      ]
      : [(blanks, 0), (blanks + one + "\n" + blanks + two + "\n" + blanks, 2)]
    for (text, count) in texts {
      let path = try DataFiles.write(text, "blank")
      let reader = try DataReader(
        path: path, format: format, blockSize: 4096, maxRecordBytes: 100_000)
      var records: [DataRecord] = []
      while let block = try reader.next() { records += block }
      #expect(records.map { $0.values } == (0..<count).map { [.int(Int64($0 + 1))] })
    }
    // Errors after the blank lines give their true line.
    let path = try DataFiles.write(blanks + "{\"a\": }\n", "blank.jsonl")
    #expect {
      let reader = try DataReader(path: path, format: .jsonl, blockSize: 4096)
      while try reader.next() != nil {}
    } throws: { error in
      "\(error)".contains("blank.jsonl:300001:7")
    }
  }

  @Test func aRowWithNoEndIsAnError() throws {
    let text = "a,b\n\"" + String(repeating: "x", count: 300_000)
    let path = try DataFiles.write(text, "unended.csv")
    #expect {
      _ = try DataReader(path: path, format: .csv, blockSize: 4096, maxRecordBytes: 100_000)
    } throws: { error in
      "\(error)".contains("has a record longer than")
    }
  }
}
