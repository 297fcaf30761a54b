import FilterDSL
import Foundation
import Testing

@testable import FilterData

/// Inputs the reader fuzzer (`Fuzz/run readers`) found reading differently at some block
/// size: each must give the same records, or the same error, whatever the block size.
@Suite struct BlockSizeTests {
  static let findings: [(String, DataFormat)] = [
    // A JSON array missing the comma between two records.
    (#"[{"a": 2, "b": [1, 2.5, "x"]} {"a": null, "c": {"d": true}}]"#, .json)
  ]

  @Test(arguments: findings.indices)
  func sameAtEveryBlockSize(_ index: Int) throws {
    let (text, format) = Self.findings[index]
    let path = try DataFiles.write(text, "finding-\(index).\(format.name)")
    let whole = DataFiles.outcome(path, blockSize: 4 << 20)
    for size in [1, 2, 3, 5, 8, 13, 28, 64, 100, 4096] {
      let pieces = DataFiles.outcome(path, blockSize: size)
      #expect(pieces == whole, "block size \(size)")
      if pieces != whole { break }
    }
  }

  @Test func anErrorFarIntoALongLineHasItsTrueColumn() throws {
    // A JSON array on one line (minified), with a missing comma 1 MB in: read in blocks of
    // 64 KiB, the start of the line is long gone, yet the column is the true one and the text
    // shown is the same as when the whole line is in memory.
    let record = #"{"a": 1, "b": "xé"}"#
    let count = 60_000
    var text = "[" + Array(repeating: record, count: count).joined(separator: ",")
    let before = text.count
    text += " " + record + "]"
    let path = try DataFiles.write(text, "long-line.json")
    let whole = DataFiles.outcome(path, blockSize: 4 << 20)
    let pieces = DataFiles.outcome(path, blockSize: 64 << 10)
    #expect(pieces == whole)
    guard case .failure(let message) = pieces else {
      Issue.record("no error")
      return
    }
    #expect(message.contains("long-line.json:1:\(before + 2)"), "\(message.prefix(300))")
    // The line is shown around the place, not whole.
    #expect(message.utf8.count < 5_000)
  }
}

/// A file that grows while it is read (a log being appended to) is read to its new end.
@Suite struct GrowingFileTests {
  @Test func aRegularFileEndsWhereAReadFindsNothingNotAtItsFirstSize() throws {
    // The writer was in the middle of a line when the file was opened; the reader reaches
    // that size, then the writer finishes the line: the reader is not at the end yet, and
    // reads the rest (it used to stop at the size it saw when opening: a false FLT401).
    let start = String(repeating: " ", count: 1 << 16) + #"{"a": 2"#
    let path = try DataFiles.write(start, "growing.jsonl")
    let input = try ByteInput(path: path)
    var bytes: [UInt8] = []
    // Exactly the bytes the file had: no read has found its end yet.
    while bytes.count < start.utf8.count {
      _ = try Self.read(input, into: &bytes, upTo: start.utf8.count - bytes.count)
    }
    #expect(!input.isExhausted)
    guard let file = fopen(path, "a") else { throw DataError.file(path, "cannot append") }
    fputs("}\n", file)
    fclose(file)
    while try Self.read(input, into: &bytes, upTo: 64) > 0 {}
    #expect(input.isExhausted)
    #expect(String(decoding: bytes, as: UTF8.self) == start + "}\n")
  }

  /// Up to `count` bytes of `input` onto the end of `bytes`.
  static func read(_ input: ByteInput, into bytes: inout [UInt8], upTo count: Int) throws -> Int {
    var space = [UInt8](repeating: 0, count: count)
    let read = try space.withUnsafeMutableBytes { try input.read(into: $0) }
    bytes += space[..<read]
    return read
  }
}
