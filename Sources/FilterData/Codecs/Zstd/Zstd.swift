/// Decompression of Zstandard frames (RFC 8878; Parquet's `ZSTD` codec, Polars' default):
/// raw, run-length and compressed blocks, literals raw, run-length or Huffman-coded in one
/// or four streams, sequences with predefined, run-length, FSE-described and repeated tables.
/// Written from the RFC; every length, offset and table is checked, so corrupt input throws
/// rather than reading or writing out of bounds, and the output never grows past what the
/// caller expects. Frames with a dictionary are refused; checksums are skipped, not checked.
enum Zstd {
  struct Failure: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
  }

  /// The bytes of the frames in `input`, which must be `expected` long.
  static func decompress(_ input: UnsafeRawBufferPointer, expected: Int) throws(Failure)
    -> [UInt8]
  {
    var decoder = ZstdDecoder(input, expected: expected)
    try decoder.run()
    guard decoder.out.count == expected else {
      throw Failure("the data is \(decoder.out.count) bytes, not \(expected)")
    }
    return decoder.out
  }
}

/// What a frame's header says: its content size when given, the window its matches reach
/// back within, and whether a checksum follows its last block.
struct ZstdFrameHeader {
  var size: Int?
  var window: Int
  var checksum: Bool

  /// The bytes of a header (after the magic number) whose first byte is `descriptor`.
  static func length(descriptor: UInt8) -> Int {
    let single = descriptor & 0x20 != 0
    return 1 + (single ? 0 : 1) + [0, 1, 2, 4][Int(descriptor & 3)]
      + [single ? 1 : 0, 2, 4, 8][Int(descriptor >> 6)]
  }
}

/// The state of one decompression: where it is in the input, the output so far, and what a
/// frame's blocks carry from one to the next (repeated offsets, tables).
struct ZstdDecoder {
  /// The compressed bytes: all of them (``Zstd/decompress(_:expected:)``), or those of the
  /// step at hand (``ZstdStream``).
  var input: UnsafeRawBufferPointer
  let expected: Int
  var position = 0
  var out: [UInt8] = []
  /// Where the current frame's output starts (offsets reach no further back).
  var frameStart = 0
  /// The three offsets a sequence may repeat, the most recent first (a tuple: an array
  /// allocated per sequence cost more than the sequence).
  var repeats = (1, 4, 8)
  var huffman: ZstdHuffman?
  var tables: [ZstdFSE?] = [nil, nil, nil]

  init(_ input: UnsafeRawBufferPointer, expected: Int) {
    (self.input, self.expected) = (input, expected)
    // The size a page claims is reserved only as far as its input could plausibly make it (a
    // frame's run-length blocks may claim gigabytes in a few bytes); the output grows past
    // that as it is made, and never past `expected`.
    out.reserveCapacity(Swift.min(expected, input.count &* 32 &+ 4096))
  }

  /// `count` bytes at `position` as a little-endian number, consumed.
  mutating func number(_ count: Int) throws(Zstd.Failure) -> Int {
    guard position + count <= input.count else { throw Zstd.Failure("the data ends early") }
    var value = 0
    for index in 0..<count { value |= Int(input[position + index]) << (8 * index) }
    position += count
    return value
  }

  /// Room for `count` more bytes of output.
  func makeRoom(_ count: Int) throws(Zstd.Failure) {
    guard count >= 0, count <= expected - out.count else {
      throw Zstd.Failure("the data holds more than the \(expected) bytes expected")
    }
  }

  mutating func run() throws(Zstd.Failure) {
    guard !input.isEmpty else { throw Zstd.Failure("the data is empty") }
    while position < input.count {
      let magic = try number(4)
      if magic & 0xFFFF_FFF0 == 0x184D_2A50 {
        // A skippable frame.
        let size = try number(4)
        guard size <= input.count - position else { throw Zstd.Failure("the data ends early") }
        position += size
        continue
      }
      guard magic == 0xFD2F_B528 else { throw Zstd.Failure("a frame does not start as one") }
      let header = try frameHeader()
      while try !block() {}
      if header.checksum { _ = try number(4) }
      if let size = header.size, out.count - frameStart != size {
        throw Zstd.Failure("a frame holds \(out.count - frameStart) bytes where it says \(size)")
      }
    }
  }

  /// Reads a frame's header (after its magic number) and starts the frame.
  mutating func frameHeader() throws(Zstd.Failure) -> ZstdFrameHeader {
    let descriptor = try number(1)
    let single = descriptor & 0x20 != 0
    guard descriptor & 0x08 == 0 else { throw Zstd.Failure("a frame header is corrupt") }
    var window = 0
    if !single {
      // The window: 2^(10 + exponent), and eighths of it more.
      let byte = try number(1)
      let base = 1 << (10 + byte >> 3)
      window = base + base / 8 * (byte & 7)
    }
    let dictionary = try number([0, 1, 2, 4][descriptor & 3])
    guard dictionary == 0 else { throw Zstd.Failure("a frame needs a dictionary") }
    let sizeBytes = [single ? 1 : 0, 2, 4, 8][descriptor >> 6]
    var size: Int?
    if sizeBytes > 0 {
      guard sizeBytes < 8 || position + 8 > input.count || input[position + 7] < 0x80 else {
        throw Zstd.Failure("a frame is too large")
      }
      size = try number(sizeBytes) + (sizeBytes == 2 ? 256 : 0)
    }
    if let size { try makeRoom(size) }
    (frameStart, repeats, huffman, tables) = (out.count, (1, 4, 8), nil, [nil, nil, nil])
    return ZstdFrameHeader(
      size: size, window: single ? size ?? 0 : window, checksum: descriptor & 0x04 != 0)
  }

  /// Decodes the block at `position`; whether it was its frame's last.
  mutating func block() throws(Zstd.Failure) -> Bool {
    let header = try number(3)
    let length = header >> 3
    guard length <= 1 << 17 else { throw Zstd.Failure("a block is too large") }
    switch (header >> 1) & 3 {
    case 0:
      guard length <= input.count - position else { throw Zstd.Failure("the data ends early") }
      try makeRoom(length)
      out += UnsafeRawBufferPointer(rebasing: input[position..<(position + length)])
      position += length
    case 1:
      let byte = UInt8(try number(1))
      try makeRoom(length)
      out += repeatElement(byte, count: length)
    case 2:
      guard length <= input.count - position else { throw Zstd.Failure("the data ends early") }
      let end = position + length
      try compressedBlock(end: end)
      position = end
    default:
      throw Zstd.Failure("a block is of a reserved type")
    }
    return header & 1 == 1
  }
}
