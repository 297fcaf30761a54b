import TestSupport
import Testing

@testable import FilterData

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `ByteInput` reads a regular file's long reads in two halves at once: the bytes come in
/// order, whole, whatever the file's size against the read's (ending in the first half, at
/// the middle, in the second half, past it).
@Suite struct ByteInputTests {
  @Test func splitReadsGiveTheFileInOrder() throws {
    let split = ByteInput.splitReads
    var random = SplitMix64(seed: 41)
    for size in [split / 2 + 3, split, split + 7, 2 * split, 2 * split + 12_345, 3 * split + 1] {
      var content = [UInt8](repeating: 0, count: size)
      content.withUnsafeMutableBytes { raw in
        for offset in stride(from: 0, to: size, by: 8) {
          withUnsafeBytes(of: random.next()) { word in
            let end = Swift.min(offset + 8, size)
            UnsafeMutableRawBufferPointer(rebasing: raw[offset..<end]).copyBytes(
              from: word.prefix(end - offset))
          }
        }
      }
      let path = try DataFiles.write(content, "split-\(size).bin")
      for room in [split, split + 1, 2 * split + 1, 3 << 20] {
        let input = try ByteInput(path: path)
        var read: [UInt8] = []
        var space = [UInt8](repeating: 0, count: room)
        var reads = 0
        while true {
          let count = try space.withUnsafeMutableBytes { try input.read(into: $0) }
          guard count > 0 else { break }
          read += space[..<count]
          reads += 1
          #expect(reads <= size / room + 2, "size \(size), room \(room): reads that never end")
          if reads > size / room + 2 { break }
        }
        // (memcmp: a debug build's `==` takes seconds over megabytes.)
        let same =
          read.count == size
          && read.withUnsafeBytes { a in
            content.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, size) == 0 }
          }
        #expect(same, "size \(size), room \(room): \(read.count) bytes read")
        #expect(input.isExhausted)
        #expect(input.bytesRead == size)
      }
    }
  }
}
