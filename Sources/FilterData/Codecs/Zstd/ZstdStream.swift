/// Zstandard data read as a stream (`.zst` files, `zstd -c` on standard input): the compressed
/// bytes are fed in pieces (``feed(_:)``, then ``endInput()``) and the data comes out in
/// pieces, a block at a time. What is kept is the window the frame's matches reach back
/// within (at most ``maxWindow``) and the block being read, however large the data or however
/// much one block claims. Frames follow one another (`cat a.zst b.zst`) and skippable frames
/// are passed over, as `zstd -d` does; checksums are skipped, not checked.
struct ZstdStream {
  private enum Stage {
    case magic
    case header
    case blocks(ZstdFrameHeader)
    case checksum(ZstdFrameHeader)
    case skipping(Int)
  }

  /// The largest window a frame may ask for: `zstd -d`'s own default limit (a frame made with
  /// `--long` asks for more).
  static let maxWindow = 128 << 20

  private var stage = Stage.magic
  /// Compressed bytes fed and not used yet, from `used` on.
  private var input: [UInt8] = []
  private var used = 0
  private var inputEnded = false
  /// The compressed bytes used before `input`'s first: where a step starts, for messages.
  private var dropped = 0
  /// The frame being read: its output (the window kept before what is not handed out yet).
  private var decoder = ZstdDecoder(UnsafeRawBufferPointer(start: nil, count: 0), expected: .max)
  /// Bytes of the decoder's output handed out.
  private var handed = 0
  /// Bytes of output trimmed from the decoder's, and where in the whole output the frame began.
  private var trimmed = 0
  private var frameBegan = 0
  /// The window of the frame being read: how far back its matches reach.
  private var window = 0

  /// Whether `bytes` start like Zstandard data.
  static func isZstd(_ bytes: some Collection<UInt8>) -> Bool {
    bytes.starts(with: [0x28, 0xB5, 0x2F, 0xFD])
  }

  /// A decoder waiting for its input.
  init() {}

  /// Adds compressed bytes.
  mutating func feed(_ bytes: ArraySlice<UInt8>) {
    if used > 0 && used >= input.count / 2 {
      input.removeFirst(used)
      dropped += used
      used = 0
    }
    input += bytes
  }

  /// Says that every compressed byte has been fed.
  mutating func endInput() { inputEnded = true }

  /// Whether every frame has been read and handed out.
  var finished: Bool {
    if case .magic = stage {
      return inputEnded && used == input.count && handed == decoder.out.count
    }
    return false
  }

  /// Where the step at hand starts in the compressed bytes.
  var offset: Int { dropped + used }

  /// The bytes of output kept: the window, and what is not handed out yet.
  var keptBytes: Int { decoder.out.count }

  /// The next piece of the data (at most `limit` bytes): empty when the bytes fed so far are
  /// used up (feed more, or end the input), nil at the end.
  mutating func nextChunk(limit: Int = 1 << 20) throws(Zstd.Failure) -> [UInt8]? {
    while true {
      if handed < decoder.out.count {
        let end = handed + Swift.min(limit, decoder.out.count - handed)
        let chunk = Array(decoder.out[handed..<end])
        handed = end
        trim()
        return chunk
      }
      guard try step() else {
        if inputEnded {
          if finished { return nil }
          throw Zstd.Failure("the data ends inside a frame")
        }
        return []
      }
    }
  }

  /// Takes the next step (a frame's magic number, its header, a block, its checksum), if its
  /// bytes are all there: whether it took one.
  private mutating func step() throws(Zstd.Failure) -> Bool {
    let available = input.count - used
    switch stage {
    case .magic:
      guard available >= 4 else {
        if available > 0 && inputEnded { throw Zstd.Failure("the data ends inside a frame") }
        return false
      }
      let magic = try read(4) { decoder throws(Zstd.Failure) in try decoder.number(4) }
      if magic & 0xFFFF_FFF0 == 0x184D_2A50 {
        guard input.count - used >= 4 else {
          used -= 4
          return false
        }
        stage = .skipping(try read(4) { decoder throws(Zstd.Failure) in try decoder.number(4) })
      } else {
        guard magic == 0xFD2F_B528 else { throw Zstd.Failure("a frame does not start as one") }
        stage = .header
      }
    case .header:
      guard available >= 1,
        available >= ZstdFrameHeader.length(descriptor: input[used])
      else { return false }
      let header = try read(ZstdFrameHeader.length(descriptor: input[used])) {
        decoder throws(Zstd.Failure) in try decoder.frameHeader()
      }
      guard header.window <= Self.maxWindow || header.size.map({ $0 <= Self.maxWindow }) == true
      else {
        throw Zstd.Failure(
          "a frame needs a window of \(header.window >> 20) MB, more than the \(Self.maxWindow >> 20) MB flt allows (as zstd -d)"
        )
      }
      frameBegan = trimmed + decoder.out.count
      window = Swift.min(header.window, header.size ?? header.window)
      stage = .blocks(header)
    case .blocks(let header):
      guard let length = Self.blockLength(input[used...]), available >= length else {
        return false
      }
      let last = try read(length) { decoder throws(Zstd.Failure) in try decoder.block() }
      if last {
        stage = header.checksum ? .checksum(header) : .magic
        if !header.checksum { try checkSize(header) }
      }
    case .checksum(let header):
      guard available >= 4 else { return false }
      used += 4
      try checkSize(header)
      stage = .magic
    case .skipping(let left):
      let skip = Swift.min(left, available)
      used += skip
      if skip == left {
        stage = .magic
      } else {
        stage = .skipping(left - skip)
        if inputEnded { throw Zstd.Failure("the data ends inside a skippable frame") }
        return false
      }
    }
    return true
  }

  /// Runs `body` on the decoder over the next `count` compressed bytes, which it must use
  /// whole; consumes them.
  private mutating func read<T>(
    _ count: Int, _ body: (inout ZstdDecoder) throws(Zstd.Failure) -> T
  ) throws(Zstd.Failure) -> T {
    let start = used
    let result = input.withUnsafeBytes { raw in
      Result { () throws(Zstd.Failure) -> T in
        decoder.input = UnsafeRawBufferPointer(rebasing: raw[start..<(start + count)])
        decoder.position = 0
        defer { decoder.input = UnsafeRawBufferPointer(start: nil, count: 0) }
        let result = try body(&decoder)
        guard decoder.position == count else { throw Zstd.Failure("a block is corrupt") }
        return result
      }
    }
    used += count
    return try result.get()
  }

  /// The bytes of the block `bytes` start with (its header's three and those it says follow),
  /// or nil when fewer than three are there to say.
  private static func blockLength(_ bytes: ArraySlice<UInt8>) -> Int? {
    guard bytes.count >= 3 else { return nil }
    let start = bytes.startIndex
    let header = Int(bytes[start]) | Int(bytes[start + 1]) << 8 | Int(bytes[start + 2]) << 16
    // A run-length block's data is one byte, whatever it makes.
    return 3 + ((header >> 1) & 3 == 1 ? 1 : header >> 3)
  }

  /// Checks that a frame that gave its size made that many bytes.
  private func checkSize(_ header: ZstdFrameHeader) throws(Zstd.Failure) {
    let made = trimmed + decoder.out.count - frameBegan
    if let size = header.size, made != size {
      throw Zstd.Failure("a frame holds \(made) bytes where it says \(size)")
    }
  }

  /// Drops output handed out that no match can reach any more: what lies before the frame's
  /// window, once twice that is kept (each byte is then moved once, on average).
  private mutating func trim() {
    let keep = Swift.max(window, 1 << 20)
    guard handed > 2 * keep else { return }
    let drop = handed - keep
    decoder.out.removeFirst(drop)
    handed -= drop
    trimmed += drop
    decoder.frameStart = Swift.max(0, decoder.frameStart - drop)
  }
}
