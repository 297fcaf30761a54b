import FilterDSL
import Foundation
import TestSupport
import Testing

@testable import FilterData

/// xz and bzip2 through the system's liblzma and libbz2 (`Tests/Fixtures/compressed`, made once
/// by the tools): fed in random pieces and read in small ones they give the data back, two
/// streams one after another too; cut or changed bytes are errors that say where, never a
/// trap; a `.xz` or `.bz2` file reads as its uncompressed twin, sniffed by its first bytes.
@Suite struct SystemDecompressorTests {
  static let folder = DataFiles.root.appendingPathComponent("Tests/Fixtures/compressed").path
  static let raw = DataFiles.root.appendingPathComponent("Tests/Fixtures/zstd/json.raw").path

  static func decompressor(_ name: String) -> any StreamDecompressor {
    name.hasSuffix(".xz") ? SystemDecompressor(.xz) : SystemDecompressor(.bzip2)
  }

  @Test(arguments: [
    "json.jsonl.xz", "json.jsonl.bz2", "json-two-streams.jsonl.xz",
    "json-two-streams.jsonl.bz2",
  ])
  func piecesGiveTheData(name: String) throws {
    let compressed = try ParquetEncodingTests.bytes("\(Self.folder)/\(name)")
    let raw = try ParquetEncodingTests.bytes(Self.raw)
    #expect(
      StreamDecompressors.decompressor(for: Array(compressed.prefix(6)))?.format
        == (name.hasSuffix(".xz") ? "xz" : "bzip2"))
    for seed in UInt64(0)..<3 {
      let limit = [1 << 20, 100, 4096][Int(seed)]
      #expect(
        try StreamedPieces.decoded(compressed, Self.decompressor(name), seed: seed, limit: limit)
          == raw,
        "\(name)")
    }
  }

  @Test(arguments: ["json.jsonl.xz", "json.jsonl.bz2"])
  func damageIsAnErrorThatSaysWhere(name: String) throws {
    let compressed = try ParquetEncodingTests.bytes("\(Self.folder)/\(name)")
    var random = SplitMix64(seed: 11)
    for _ in 0..<30 {
      let cut = random.int(1...(compressed.count - 1))
      #expect(throws: DecompressionFailure.self, "\(name) cut at \(cut)") {
        _ = try StreamedPieces.decoded(
          Array(compressed[..<cut]), Self.decompressor(name), seed: 1, limit: 1 << 20)
      }
    }
    var failures = 0
    for _ in 0..<60 {
      var changed = compressed
      changed[random.int(0...(changed.count - 1))] ^= UInt8(random.int(1...255))
      do {
        _ = try StreamedPieces.decoded(changed, Self.decompressor(name), seed: 2, limit: 1 << 20)
      } catch {
        failures += 1
        #expect(error.offset.map { $0 >= 0 && $0 <= changed.count } == true)
      }
    }
    // (bzip2 and xz check their data: nearly every change is found.)
    #expect(failures > 40)
  }

  @Test func filesReadAsTheirTwins() throws {
    func all(_ reader: DataReader) throws -> [String] {
      var out: [String] = []
      while let block = try reader.next() { out += block.map { $0.values.description } }
      return out
    }
    let twin = try all(DataReader(path: Self.raw, format: .jsonl))
    for name in ["json.jsonl.xz", "json-two-streams.jsonl.bz2"] {
      #expect(DataFormat(path: name) == .jsonl)
      #expect(try all(DataReader(path: "\(Self.folder)/\(name)")) == twin, "\(name)")
    }
    let cut = try DataFiles.write(
      Array(try ParquetEncodingTests.bytes("\(Self.folder)/json.jsonl.xz").prefix(1000)),
      "cut.jsonl.xz")
    #expect {
      _ = try all(DataReader(path: cut))
    } throws: { error in
      "\(error)".contains("is not valid xz data") && "\(error)".contains("at compressed byte")
    }
  }
}
