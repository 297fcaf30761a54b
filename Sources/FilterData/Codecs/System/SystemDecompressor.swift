#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// xz and bzip2 data read as a stream through the system's own libraries (liblzma, libbz2),
/// loaded when such data is first met (`dlopen`), as SQLite and OpenSSL are: building flt needs
/// neither, and running it needs one only to read its format. Where the library is missing,
/// reading is an error that names it.
struct SystemDecompressor: StreamDecompressor {
  /// The formats read so.
  enum Kind {
    case xz, bzip2
  }

  let format: String
  private let stream: SystemStream
  private var input: [UInt8] = []
  private var used = 0
  private var inputEnded = false
  private var ended = false
  private var failure: DecompressionFailure?

  /// The decompressor of `kind`; when its library cannot be loaded, one that says so at the
  /// first read.
  init(_ kind: Kind) {
    format = kind == .xz ? "xz" : "bzip2"
    switch kind == .xz ? SystemStream.lzma() : SystemStream.bzip2() {
    case .success(let stream): self.stream = stream
    case .failure(let failure):
      stream = SystemStream.unavailable
      self.failure = failure
    }
  }

  /// Whether `bytes` start like xz data: FD '7zXZ' 00.
  static func isXZ(_ bytes: some Collection<UInt8>) -> Bool {
    bytes.starts(with: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00])
  }

  /// Whether `bytes` start like bzip2 data: 'BZh' and a block size from 1 to 9.
  static func isBzip2(_ bytes: some Collection<UInt8>) -> Bool {
    bytes.starts(with: [0x42, 0x5A, 0x68]) && bytes.count >= 4
      && (0x31...0x39).contains(Array(bytes.prefix(4))[3])
  }

  mutating func feed(_ bytes: ArraySlice<UInt8>) {
    if used > 0 && used >= input.count / 2 {
      input.removeFirst(used)
      used = 0
    }
    input += bytes
  }

  mutating func endInput() { inputEnded = true }

  var finished: Bool { ended && inputEnded && used == input.count }

  mutating func nextPiece(limit: Int) throws(DecompressionFailure) -> [UInt8]? {
    if let failure { throw failure }
    if ended {
      guard used < input.count else { return inputEnded ? nil : [] }
      // Another stream after the first (`cat a.bz2 b.bz2`, pbzip2's output): read on.
      try stream.restart()
      ended = false
    }
    var out = [UInt8](repeating: 0, count: Swift.max(1, Swift.min(limit, 1 << 20)))
    let start = used
    let result = input.withUnsafeBytes { raw in
      out.withUnsafeMutableBytes { room in
        stream.step(
          UnsafeRawBufferPointer(rebasing: raw[start...]), into: room, finishing: inputEnded)
      }
    }
    do throws(DecompressionFailure) {
      let (consumed, made, streamEnded) = try result.get()
      used += consumed
      ended = streamEnded
      out.removeLast(out.count - made)
      // Nothing made nor used, and no more input to come: the data ends early.
      if made == 0 && consumed == 0 && !streamEnded && inputEnded {
        throw DecompressionFailure(description: "it ends before the compressed data does")
      }
      return out
    } catch {
      // (Where the library had read to; kept, so that later reads say the same.)
      let found = DecompressionFailure(description: error.description, offset: stream.totalIn)
      failure = found
      throw found
    }
  }
}

/// A decoder of the system's library, its C stream in memory of its own (freed with it).
final class SystemStream: @unchecked Sendable {
  private let memory: UnsafeMutableRawPointer?
  private let library: SystemCodecLibrary?

  /// A stream that reads nothing (its library could not be loaded).
  static let unavailable = SystemStream(memory: nil, library: nil)

  private init(memory: UnsafeMutableRawPointer?, library: SystemCodecLibrary?) {
    (self.memory, self.library) = (memory, library)
  }

  deinit {
    if let memory, let library { library.end(memory) }
    memory?.deallocate()
  }

  /// An xz decoder (several streams one after another, as `xz -d` reads them).
  static func lzma() -> Result<SystemStream, DecompressionFailure> {
    SystemCodecLibrary.lzma.flatMap { library in
      let stream = SystemStream(memory: SystemCodecLibrary.zeroed(), library: library)
      return stream.restartResult().map { stream }
    }
  }

  /// A bzip2 decoder.
  static func bzip2() -> Result<SystemStream, DecompressionFailure> {
    SystemCodecLibrary.bzip2.flatMap { library in
      let stream = SystemStream(memory: SystemCodecLibrary.zeroed(), library: library)
      return stream.restartResult().map { stream }
    }
  }

  /// Starts the stream afresh (for the next of several streams).
  func restart() throws(DecompressionFailure) { try restartResult().get() }

  private func restartResult() -> Result<Void, DecompressionFailure> {
    guard let memory, let library else {
      return .failure(DecompressionFailure(description: "no library"))
    }
    return library.start(memory)
  }

  /// The compressed bytes read so far, by the library's count.
  var totalIn: Int? { memory.flatMap { memory in library?.totalIn(memory) } }

  /// Decodes from `input` into `room`: the bytes of input used and of output made, and
  /// whether the stream ended.
  func step(
    _ input: UnsafeRawBufferPointer, into room: UnsafeMutableRawBufferPointer, finishing: Bool
  )
    -> Result<(Int, Int, Bool), DecompressionFailure>
  {
    guard let memory, let library else {
      return .failure(DecompressionFailure(description: "no library"))
    }
    return library.step(memory, input, room, finishing)
  }
}
