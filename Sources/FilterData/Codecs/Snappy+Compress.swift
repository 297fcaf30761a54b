extension Snappy {
  /// `input` in Snappy's raw format: its length, then literals and copies of up to 64 bytes
  /// from at most 65,535 bytes back, found by a table of where each 4-byte sequence was last
  /// seen (greedy, as the reference compressor does, without its skipping heuristics).
  static func compress(_ input: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(input.count / 2 + 16)
    PackedBits.appendVarint(UInt64(input.count), to: &out)
    input.withUnsafeBufferPointer { bytes in
      let count = bytes.count
      var table = [Int](repeating: -1, count: 1 << 14)
      func word(_ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16
          | UInt32(bytes[at + 3]) << 24
      }
      func literal(_ range: Range<Int>) {
        var start = range.lowerBound
        while start < range.upperBound {
          // At most 65,536 bytes a literal, its length less one in the tag or in 1-2 bytes.
          let size = Swift.min(range.upperBound - start, 1 << 16)
          let n = size - 1
          if n < 60 {
            out.append(UInt8(n << 2))
          } else if n < 256 {
            out += [60 << 2, UInt8(n)]
          } else {
            out += [61 << 2, UInt8(n & 0xFF), UInt8(n >> 8)]
          }
          out += bytes[start..<start + size]
          start += size
        }
      }
      var position = 0
      var pending = 0
      while position + 4 <= count {
        let current = word(position)
        let slot = Int((current &* 0x1E35_A7BD) >> 18)
        let candidate = table[slot]
        table[slot] = position
        guard candidate >= 0, position - candidate <= 65_535, word(candidate) == current else {
          position += 1
          continue
        }
        var size = 4
        while position + size < count && bytes[candidate + size] == bytes[position + size] {
          size += 1
        }
        literal(pending..<position)
        let offset = position - candidate
        var left = size
        while left > 0 {
          // Copies of 4 to 64 bytes, the last at least 4 (a copy of 65-67 is split 60 + rest).
          let piece = left > 64 ? (left - 64 < 4 ? 60 : 64) : left
          out += [UInt8((piece - 1) << 2 | 2), UInt8(offset & 0xFF), UInt8(offset >> 8)]
          left -= piece
        }
        position += size
        pending = position
      }
      literal(pending..<count)
    }
    return out
  }
}
