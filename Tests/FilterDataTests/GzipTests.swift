import FilterDSL
import Foundation
import Testing

@testable import FilterData

/// Our own inflate and gzip reader, against data made by zlib (Python's `gzip` module and the
/// `gzip` command): stored, fixed and dynamic Huffman blocks, headers with a file name,
/// several members, and damage of every kind.
@Suite struct GzipTests {
  static let hello = Array("hello, hello, hello flt\n".utf8)
  /// `hello` compressed at level 0 (a stored block), at level 9 (fixed Huffman codes), and at
  /// level 9 with the file name `hello.txt` in the header.
  static let stored = "H4sIAAAAAAAA/wEYAOf/aGVsbG8sIGhlbGxvLCBoZWxsbyBmbHQKEHGeGBgAAAA="
  static let fixed = "H4sIAAAAAAAC/8tIzcnJ11HIQKIU0nJKuAAQcZ4YGAAAAA=="
  static let named = "H4sICAAAAAAC/2hlbGxvLnR4dADLSM3JyddRyECiFNJySrgAEHGeGBgAAAA="
  /// Nothing, compressed; and two members, "first\n" (level 9) then "second\n" (level 1).
  static let empty = "H4sIAAAAAAAC/wMAAAAAAAAAAAA="
  static let members = "H4sIAAAAAAAC/0vLLCou4QIAKrNKxwYAAAAfiwgAAAAAAAT/K05Nzs9L4QIAfsAPBgcAAAA="

  static func bytes(_ base64: String) -> [UInt8] {
    Array(Data(base64Encoded: base64) ?? Data())
  }

  static func decompress(_ data: [UInt8]) throws(InflateError) -> [UInt8] {
    var decoder = GzipDecoder(data)
    var out: [UInt8] = []
    while let chunk = try decoder.nextChunk() { out += chunk }
    return out
  }

  @Test func crc32CheckValue() {
    // The published check value of CRC-32/ISO-HDLC.
    var crc = CRC32()
    crc.update(Array("123456789".utf8))
    #expect(crc.value == 0xCBF4_3926)
  }

  @Test(arguments: [stored, fixed, named])
  func smallFiles(base64: String) throws {
    #expect(try Self.decompress(Self.bytes(base64)) == Self.hello)
  }

  @Test func emptyAndSeveralMembers() throws {
    #expect(try Self.decompress(Self.bytes(Self.empty)) == [])
    #expect(try Self.decompress(Self.bytes(Self.members)) == Array("first\nsecond\n".utf8))
  }

  @Test func dynamicBlocksOfTheBundledExample() throws {
    // examples/phones.json.gz was made with `gzip -9 -n`.
    let root = DataFiles.root.appendingPathComponent("examples")
    let compressed = try [UInt8](Data(contentsOf: root.appendingPathComponent("phones.json.gz")))
    let plain = try [UInt8](Data(contentsOf: root.appendingPathComponent("phones.json")))
    #expect(try Self.decompress(compressed) == plain)
    // Read as a data file, it gives the records of the plain file, at any block size.
    let gzPath = root.appendingPathComponent("phones.json.gz").path
    let expected = try DataFiles.read(root.appendingPathComponent("phones.json").path)
    for size in [7, 4096, 1 << 20] {
      #expect(try DataFiles.read(gzPath, blockSize: size) == expected, "block size \(size)")
    }
  }

  @Test func damageIsAnErrorNeverACrash() throws {
    let good = Self.bytes(Self.named)
    // Cut anywhere: an error (the empty prefix is not gzip at all, so it is skipped).
    for end in 2..<good.count {
      #expect(throws: InflateError.self) { try Self.decompress(Array(good[..<end])) }
    }
    // A wrong CRC or length in the trailer.
    var crc = good
    crc[crc.count - 8] ^= 1
    #expect(throws: InflateError.invalid("a CRC-32 that does not match the data")) {
      try Self.decompress(crc)
    }
    var length = good
    length[length.count - 1] ^= 1
    #expect(throws: InflateError.invalid("a length that does not match the data")) {
      try Self.decompress(length)
    }
    // Random damage to the dynamic example: an error or some output, never a trap.
    let root = DataFiles.root.appendingPathComponent("examples")
    let original = try [UInt8](Data(contentsOf: root.appendingPathComponent("phones.json.gz")))
    var state: UInt64 = 7
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    var failures = 0
    for _ in 0..<300 {
      var bytes = original
      for _ in 0..<(1 + next(4)) { bytes[next(bytes.count)] = UInt8(next(256)) }
      do {
        _ = try Self.decompress(bytes)
      } catch {
        failures += 1
      }
    }
    #expect(failures > 250)
  }

  @Test func theCommandReadsCompressedFilesAndPipes() throws {
    let root = DataFiles.root.appendingPathComponent("examples")
    let reader = try DataReader(path: root.appendingPathComponent("phones.json.gz").path)
    #expect(reader.format == .json)
    #expect(reader.schema.names.first == "model")
    let path = try DataFiles.write(Self.bytes(Self.stored), "hello.bin")
    // Not a data format, but gzip is recognised by its first bytes whatever the name.
    let text = try DataReader(path: path, format: .csv)
    // (A space after every comma of the header: spaces after commas are not data.)
    #expect(text.header == ["hello", "hello", "hello flt"])
  }
}
