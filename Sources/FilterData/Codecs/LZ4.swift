/// Decompression of LZ4's block format (Parquet's `LZ4_RAW` codec, and the older `LZ4`, which
/// Hadoop's writers framed) and of its frame format (Arrow's `LZ4_FRAME`): sequences of literals and a copy of earlier output, each a token
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

  /// The `expected` bytes of the LZ4 frames in `compressed` (one after another): each its
  /// magic number, its descriptor (flags, block size, the content's size and a dictionary's
  /// id if given, a checksum of the descriptor), its blocks (each its size, its high bit set
  /// for stored bytes, then its bytes and, if the flags say so, a checksum), an empty block,
  /// and the content's checksum if the flags say so. Blocks may copy from the blocks before
  /// them. Checksums are skipped, not checked; frames with a dictionary are refused.
  static func decompressFrames(_ compressed: UnsafeRawBufferPointer, expected: Int)
    throws(Failure) -> [UInt8]
  {
    guard expected >= 0, expected <= compressed.count &* 255 &+ 16 else {
      throw Failure(message: "LZ4 data cannot hold the \(expected) bytes it is said to")
    }
    var output = [UInt8](repeating: 0, count: expected)
    let written = try output.withUnsafeMutableBufferPointer { (out) throws(Failure) -> Int in
      var input = 0
      var written = 0
      func word() throws(Failure) -> Int {
        guard compressed.count - input >= 4 else { throw Failure(message: "LZ4 frame ends early") }
        defer { input += 4 }
        return (0..<4).reduce(0) { $0 | Int(compressed[input + $1]) << (8 * $1) }
      }
      while input < compressed.count {
        let magic = try word()
        if magic & 0xFFFF_FFF0 == 0x184D_2A50 {
          // A skippable frame: its length, then bytes to pass over.
          let length = try word()
          guard length <= compressed.count - input else {
            throw Failure(message: "LZ4 frame ends early")
          }
          input += length
          continue
        }
        guard magic == 0x184D_2204 else { throw Failure(message: "not an LZ4 frame") }
        guard compressed.count - input >= 3 else { throw Failure(message: "LZ4 frame ends early") }
        let flags = compressed[input]
        guard flags >> 6 == 1 else { throw Failure(message: "an LZ4 frame of an unknown version") }
        guard flags & 1 == 0 else { throw Failure(message: "an LZ4 frame needs a dictionary") }
        // The flags, the block size, the content size if given, then the descriptor's checksum.
        input += 2 + (flags & 0x08 != 0 ? 8 : 0) + 1
        guard input <= compressed.count else { throw Failure(message: "LZ4 frame ends early") }
        let blockChecksums = flags & 0x10 != 0
        while true {
          let size = try word()
          if size == 0 { break }
          let (length, stored) = (size & 0x7FFF_FFFF, size & 0x8000_0000 != 0)
          guard length <= compressed.count - input else {
            throw Failure(message: "an LZ4 block runs past the frame")
          }
          let bytes = UnsafeRawBufferPointer(rebasing: compressed[input..<input + length])
          if stored {
            guard length <= out.count - written else {
              throw Failure(message: "LZ4 data gives more than the \(expected) bytes expected")
            }
            for index in 0..<length { out[written + index] = bytes[index] }
            written += length
          } else {
            written = try block(bytes, into: out, from: written)
          }
          input += length + (blockChecksums ? 4 : 0)
        }
        if flags & 0x04 != 0 { input += 4 }
        guard input <= compressed.count else { throw Failure(message: "LZ4 frame ends early") }
      }
      return written
    }
    guard written == expected else {
      throw Failure(message: "LZ4 data gives \(written) bytes where \(expected) are expected")
    }
    return output
  }

  /// Decodes the block `compressed` into `out` after the `start` bytes already there (which
  /// its copies may reach into); where the output ends.
  private static func block(
    _ compressed: UnsafeRawBufferPointer, into out: UnsafeMutableBufferPointer<UInt8>,
    from start: Int = 0
  ) throws(Failure) -> Int {
    var input = 0
    var written = start
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
