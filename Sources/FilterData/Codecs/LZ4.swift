/// Decompression of LZ4's block format (Parquet's `LZ4_RAW` codec, and the older `LZ4`, which
/// Hadoop's writers framed): sequences of literals and a copy of earlier output, each a token
/// (the literals' length in its high four bits, the copy's less four in its low four, 15
/// meaning that bytes of 255 and a last one follow), the literals, and the copy's offset in
/// two bytes; the last sequence has literals only. Written from the format's description;
/// every length and offset is checked, so corrupt input throws rather than reading or writing
/// out of bounds.
enum LZ4 {
  struct Failure: Error, Equatable {
    var message: String
  }

  /// The `expected` bytes the block `compressed` holds.
  static func decompress(_ compressed: UnsafeRawBufferPointer, expected: Int) throws(Failure)
    -> [UInt8]
  {
    // A byte of input gives at most 255 bytes of output: more is corrupt (and would
    // allocate for nothing).
    guard expected >= 0, expected <= compressed.count &* 255 &+ 16 else {
      throw Failure(message: "LZ4 data cannot hold the \(expected) bytes its page says")
    }
    var output = [UInt8](repeating: 0, count: expected)
    let written = try output.withUnsafeMutableBufferPointer { (out) throws(Failure) in
      try block(compressed, into: out)
    }
    guard written == expected else {
      throw Failure(message: "LZ4 data gives \(written) bytes where its page says \(expected)")
    }
    return output
  }

  /// The data of Parquet's older `LZ4` codec, `expected` bytes: Hadoop's frames (each the
  /// bytes it gives and the bytes it takes, 4 bytes each, big-endian, then a block) where the
  /// data is framed so, else one block, as some writers left it.
  static func decompressHadoop(_ compressed: UnsafeRawBufferPointer, expected: Int)
    throws(Failure) -> [UInt8]
  {
    if let framed = try? hadoopFrames(compressed, expected: expected) { return framed }
    return try decompress(compressed, expected: expected)
  }

  private static func hadoopFrames(_ compressed: UnsafeRawBufferPointer, expected: Int)
    throws(Failure) -> [UInt8]
  {
    var output: [UInt8] = []
    var input = 0
    func word(_ at: Int) -> Int {
      (0..<4).reduce(0) { $0 << 8 | Int(compressed[at + $1]) }
    }
    while input < compressed.count {
      guard compressed.count - input >= 8 else { throw Failure(message: "not framed") }
      let (size, length) = (word(input), word(input + 4))
      input += 8
      guard length <= compressed.count - input, size <= expected - output.count else {
        throw Failure(message: "not framed")
      }
      output += try decompress(
        UnsafeRawBufferPointer(rebasing: compressed[input..<input + length]), expected: size)
      input += length
    }
    guard output.count == expected else { throw Failure(message: "not framed") }
    return output
  }

  /// Decodes the block `compressed` into `out`; the bytes written.
  private static func block(
    _ compressed: UnsafeRawBufferPointer, into out: UnsafeMutableBufferPointer<UInt8>
  ) throws(Failure) -> Int {
    var input = 0
    var written = 0
    /// A length whose four bits were 15: more bytes, added, until one is not 255.
    func length(_ start: Int) throws(Failure) -> Int {
      guard start == 15 else { return start }
      var total = start
      while true {
        guard input < compressed.count else { throw Failure(message: "LZ4 data ends early") }
        let byte = Int(compressed[input])
        input += 1
        total += byte
        guard total <= out.count else {
          throw Failure(message: "an LZ4 length runs past the output")
        }
        if byte != 255 { return total }
      }
    }
    while input < compressed.count {
      let token = Int(compressed[input])
      input += 1
      let literals = try length(token >> 4)
      guard literals <= compressed.count - input, literals <= out.count - written else {
        throw Failure(message: "LZ4 literals run past the data")
      }
      for index in 0..<literals { out[written + index] = compressed[input + index] }
      (input, written) = (input + literals, written + literals)
      // The last sequence ends after its literals.
      guard input < compressed.count else { break }
      guard compressed.count - input >= 2 else { throw Failure(message: "LZ4 data ends early") }
      let offset = Int(compressed[input]) | Int(compressed[input + 1]) << 8
      input += 2
      let size = try length(token & 15) + 4
      guard offset > 0, offset <= written, size <= out.count - written else {
        throw Failure(message: "an LZ4 copy reaches outside the output")
      }
      // Byte by byte: a copy may overlap what it writes (a run).
      for index in 0..<size { out[written + index] = out[written - offset + index] }
      written += size
    }
    return written
  }
}
