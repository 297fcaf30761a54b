import FilterDSL
import Foundation
import Testing

@testable import FilterData

/// Loading into columns: records' text read back from the file by byte range (or copied
/// when the input cannot be read again), columns built by the parts of each block as they are
/// parsed, rows read again after the schema grew, and a file changed after loading.
@Suite struct LoadedRecordsTests {
  static func load(_ path: String, blockSize: Int = 4 << 20) throws -> LoadedRecords {
    try LoadedRecords(reading: DataReader(path: path, format: nil, blockSize: blockSize))
  }

  /// Every loaded record, in `rows` order, as values and text.
  static func contents(_ loaded: LoadedRecords, _ rows: [Int]) -> [([Value], [UInt8])] {
    loaded.records(rows).map { ($0.values, Array($0.text)) }
  }

  static func jsonLines(_ count: Int) -> String {
    (0..<count).map { i in
      #"{"id": \#(i), "name": "n\#(i % 7)", "tags": ["a\#(i % 3)"]}"# + (i % 5 == 0 ? "  " : "")
    }.joined(separator: "\n") + "\n"
  }

  @Test(arguments: [
    ("records.jsonl", jsonLines(2_000)),
    ("records.json", "[\n" + jsonLines(500).split(separator: "\n").joined(separator: ",\n") + "]"),
    (
      "records.csv",
      "id,name\n" + (0..<1_500).map { "\($0),\"n, \($0 % 9)\"" }.joined(separator: "\r\n")
    ),
  ])
  func textIsReadBackFromTheFileAsTheReaderGaveIt(name: String, text: String) throws {
    let path = try DataFiles.write(text, name)
    let expected = try DataFiles.read(path)
    for blockSize in [64, 1_000, 4 << 20] {
      let loaded = try Self.load(path, blockSize: blockSize)
      #expect(loaded.textInFile)
      #expect(loaded.count == expected.values.count)
      let all = Array(0..<loaded.count)
      let got = Self.contents(loaded, all)
      #expect(got.map(\.1) == expected.texts, "block size \(blockSize)")
      #expect(got.map(\.0) == expected.values, "block size \(blockSize)")
      // Out of order, repeated, and outside the table (empty records).
      var rng = SystemRandomNumberGenerator()
      let shuffled = all.shuffled(using: &rng) + [3, 3, -1, loaded.count]
      let some = Self.contents(loaded, shuffled)
      for (row, (values, text)) in zip(shuffled, some) {
        if row >= 0 && row < loaded.count {
          #expect(text == expected.texts[row] && values == expected.values[row])
        } else {
          #expect(text.isEmpty && values.isEmpty)
        }
      }
    }
  }

  /// `bytes` as gzip data of one stored (uncompressed) deflate block.
  static func gzipStored(_ bytes: [UInt8]) -> [UInt8] {
    var crc = CRC32()
    crc.update(bytes)
    let length = UInt16(bytes.count)
    func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    func le32(_ v: UInt32) -> [UInt8] { le16(UInt16(v & 0xFFFF)) + le16(UInt16(v >> 16)) }
    return [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF, 1] + le16(length) + le16(~length) + bytes
      + le32(crc.value) + le32(UInt32(bytes.count))
  }

  @Test func inputThatCannotBeReadAgainIsCopied() throws {
    let text = Self.jsonLines(300)
    let plain = try DataFiles.write(text, "copied.jsonl")
    let gzip = try DataFiles.write(Self.gzipStored(Array(text.utf8)), "copied.jsonl.gz")
    let loaded = try Self.load(gzip)
    #expect(!loaded.textInFile)
    #expect(loaded.textBytes >= text.utf8.count - 300)
    let expected = try DataFiles.read(plain)
    #expect(loaded.count == 300)
    #expect(Self.contents(loaded, Array(0..<300)).map(\.1) == expected.texts)
  }

  @Test func rowsReadBeforeTheSchemaGrewAreReadAgain() throws {
    // Past the sample, a decimal turns the integers into decimals and a new field appears.
    var lines = (0..<(DataReader.sampleRecords + 50)).map { #"{"n": \#($0)}"# }
    lines.append(#"{"n": 0.5, "late": "x"}"#)
    let path = try DataFiles.write(lines.joined(separator: "\n"), "grows.jsonl")
    let loaded = try Self.load(path, blockSize: 4_096)
    #expect(loaded.table.schema.fields.map(\.name) == ["n", "late"])
    #expect(loaded.record(0).values == [.double(0), .null])
    #expect(loaded.record(10_049).values == [.double(10_049), .null])
    #expect(loaded.record(loaded.count - 1).values == [.double(0.5), .string("x")])
    #expect(Array(loaded.record(7).text) == Array(#"{"n": 7}"#.utf8))
  }

  @Test func aDataErrorStopsTheLoad() throws {
    var lines = (0..<20_000).map { #"{"n": \#($0)}"# }
    lines[15_000] = #"{"n": 1,}"#
    let path = try DataFiles.write(lines.joined(separator: "\n"), "broken.jsonl")
    #expect(throws: DataError.self) { try Self.load(path, blockSize: 1_024) }
    // Stopped after the first block: the rows of that block only.
    let reader = try DataReader(path: path, format: nil, blockSize: 1_024)
    var asked = 0
    let partial = try LoadedRecords(reading: reader) {
      asked += 1
      return asked > 1
    }
    #expect(partial.count > 0 && partial.count < 15_000)
  }

  @Test func aFileChangedAfterLoadingIsPrintedFromItsValues() throws {
    let path = try DataFiles.write(
      #"{"a": 1, "b": "x"}"# + "\n" + #"{"a": 2, "b": "y"}"#, "changed.jsonl")
    let loaded = try Self.load(path)
    #expect(!loaded.changedOnDisk)
    #expect(Array(loaded.record(1).text) == Array(#"{"a": 2, "b": "y"}"#.utf8))
    // Rewritten in place, shorter: the old ranges would read the wrong bytes (or none).
    try Data("{}\n".utf8).write(to: URL(fileURLWithPath: path))
    #expect(loaded.changedOnDisk)
    let records = loaded.records([0, 1])
    #expect(records.map(\.values) == [[.int(1), .string("x")], [.int(2), .string("y")]])
    #expect(String(decoding: records[1].text, as: UTF8.self) == #"{"a":2,"b":"y"}"#)
    // Emptied: still no trap, still the loaded values.
    try Data().write(to: URL(fileURLWithPath: path))
    #expect(loaded.record(0).values == [.int(1), .string("x")])
  }

  @Test func aFileReplacedAfterLoadingIsStillReadAsItWas() throws {
    let text = #"{"a": 1}"# + "\n" + #"{"a": 22}"# + "\n"
    let path = try DataFiles.write(text, "replaced.jsonl")
    let loaded = try Self.load(path)
    // An editor's save: a new file renamed over the old one.
    let other = try DataFiles.write(#"{"zzz": 333333}"#, "other.jsonl")
    #expect(rename(other, path) == 0)
    #expect(!loaded.changedOnDisk)
    #expect(Array(loaded.record(1).text) == Array(#"{"a": 22}"#.utf8))
  }
}

/// Records that each bring new keys: what a load costs grows with the values, not with the
/// fields times the records.
@Suite struct ManyKeysLoadTests {
  @Test func recordsThatEachBringNewKeysLoadIntoSparseColumns() throws {
    // 11,000 records of two new keys each: the last 1,000 come after the sample, so the
    // schema grows while they are read.
    let count = 11_000
    let path = try DataFiles.write(ManyKeysTests.newKeys(count), "newkeys.jsonl")
    let reader = try DataReader(path: path)
    let loaded = try LoadedRecords(reading: reader)
    #expect(loaded.count == count)
    #expect(loaded.table.schema.fields.count == 2 * count)
    // The schema grows once for many records (1,024 or more looked at past each misfit),
    // not once per record.
    #expect(reader.schemaVersion < 10)
    // Each column holds its one value (2 x 11,000 x 11,000 slots, were they dense).
    #expect(loaded.table.columns[2 * count - 1].layout == "sparse, 1 with a value")
    #expect(loaded.bytes < 8 << 20)
    for row in [0, 5_000, 10_000, 10_500, count - 1] {
      #expect(loaded.table.value(row: row, slot: 2 * row) == .int(Int64(row)))
      #expect(loaded.table.value(row: row, slot: 2 * row + 1) == .string("x"))
      #expect(loaded.table.value(row: row, slot: (2 * row + 2) % (2 * count)) == .null)
    }
    let filter = try CompiledFilter("k10999_a > 0 or k3_b == x", for: loaded.table.recordType)
    #expect(filter.filter(loaded.table.rows).matches == [3, 10_999])
    // Blocks of wide records hold fewer of them: about as many values as a usual block.
    let again = try DataReader(path: path)
    var (blocks, read) = (0, 0)
    while let block = try again.next() {
      let width = block.map(\.values.count).max() ?? 0
      #expect(block.count == 1 || block.count * width <= DataReader.blockValues)
      (blocks, read) = (blocks + 1, read + block.count)
    }
    #expect(read == count && blocks > 10)
  }
}
