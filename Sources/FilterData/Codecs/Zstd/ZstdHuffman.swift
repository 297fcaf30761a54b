/// A Huffman decoding table for literals (RFC 8878, 4.2): indexed by the next `maxBits` bits
/// of a stream read backward, the byte they start with and how many bits its code takes.
struct ZstdHuffman {
  let maxBits: Int
  /// Symbol in the low byte, code length above it.
  let table: [UInt16]

  /// Reads a tree description at `data[position...]`, within `end`.
  init(_ data: UnsafeRawBufferPointer, _ position: inout Int, end: Int) throws(Zstd.Failure) {
    guard position < end else { throw Zstd.Failure("a Huffman tree description is missing") }
    let header = Int(data[position])
    position += 1
    var weights: [Int]
    if header >= 128 {
      // Weights of four bits, two to a byte.
      let count = header - 127
      guard position + (count + 1) / 2 <= end else {
        throw Zstd.Failure("a Huffman tree description ends early")
      }
      weights = (0..<count).map { index in
        let byte = Int(data[position + index / 2])
        return index % 2 == 0 ? byte >> 4 : byte & 15
      }
      position += (count + 1) / 2
    } else {
      guard header > 0, position + header <= end else {
        throw Zstd.Failure("a Huffman tree description ends early")
      }
      weights = try Self.compressedWeights(data, position, position + header)
      position += header
    }
    // The last symbol's weight is what makes the total a power of two.
    guard weights.count < 256, weights.allSatisfy({ $0 <= 11 }) else {
      throw Zstd.Failure("a Huffman tree has weights out of range")
    }
    let sum = weights.reduce(0) { $0 + ($1 > 0 ? 1 << ($1 - 1) : 0) }
    guard sum > 0 else { throw Zstd.Failure("a Huffman tree has no symbols") }
    let maxBits = Int.bitWidth - sum.leadingZeroBitCount
    let rest = (1 << maxBits) - sum
    guard maxBits <= 11, rest.nonzeroBitCount == 1 else {
      throw Zstd.Failure("a Huffman tree's weights do not add up")
    }
    weights.append(Int.bitWidth - rest.leadingZeroBitCount)
    var table = [UInt16](repeating: 0, count: 1 << maxBits)
    var next = 0
    for weight in 1...maxBits {
      for (symbol, w) in weights.enumerated() where w == weight {
        let entry = UInt16(symbol) | UInt16(maxBits + 1 - weight) << 8
        for index in next..<(next + (1 << (weight - 1))) { table[index] = entry }
        next += 1 << (weight - 1)
      }
    }
    (self.maxBits, self.table) = (maxBits, table)
  }

  /// Weights compressed with FSE (accuracy at most 6), two states taking turns.
  private static func compressedWeights(_ data: UnsafeRawBufferPointer, _ start: Int, _ end: Int)
    throws(Zstd.Failure) -> [Int]
  {
    var header = ZstdForwardBits(data, from: start)
    let fse = try ZstdFSE.read(&header, maxSymbol: 255, maxLog: 6)
    guard header.nextByte < end, var bits = ZstdBackwardBits(data, header.nextByte, end) else {
      throw Zstd.Failure("Huffman weights are corrupt")
    }
    var states = [Int(bits.read(fse.accuracyLog)), Int(bits.read(fse.accuracyLog))]
    var weights: [Int] = []
    var turn = 0
    while weights.count < 255 {
      let entry = fse.entries[states[turn]]
      weights.append(Int(entry.symbol))
      states[turn] = Int(entry.baseline) + Int(bits.read(Int(entry.bits)))
      if bits.isOverread {
        // The other state's symbol is the last.
        weights.append(Int(fse.entries[states[1 - turn]].symbol))
        return weights
      }
      turn = 1 - turn
    }
    throw Zstd.Failure("Huffman weights are too many")
  }

  /// `count` bytes decoded from the stream `data[start..<end]`, appended to `out`.
  func decode(
    _ data: UnsafeRawBufferPointer, _ start: Int, _ end: Int, count: Int, into out: inout [UInt8]
  ) throws(Zstd.Failure) {
    guard var bits = ZstdBackwardBits(data, start, end) else {
      throw Zstd.Failure("a literals stream is corrupt")
    }
    for _ in 0..<count {
      let entry = table[Int(bits.peek(maxBits))]
      out.append(UInt8(truncatingIfNeeded: entry))
      bits.skip(Int(entry >> 8))
    }
    guard bits.isFinished else {
      throw Zstd.Failure("a literals stream does not end where its literals do")
    }
  }
}
