import Dispatch

#if canImport(Glibc)
  import Glibc
  private let systemRead = Glibc.read
#elseif canImport(Darwin)
  import Darwin
  private let systemRead = Darwin.read
#endif

/// A file or standard input read in large blocks, straight into byte arrays. Compressed data
/// (gzip, zstd: by its first bytes, whatever the name) is decompressed as it is read, a few
/// megabytes of it at a time.
final class ByteInput {
  /// The name used in messages: the path, or `<stdin>`.
  let name: String
  /// The size of the file when known (not for pipes), for progress reports.
  let size: Int?
  private let descriptor: Int32
  /// Bytes of the file read so far (for compressed data, compressed bytes).
  var bytesRead: Int { rawRead }
  private var rawRead = 0
  private var rawEnded = false
  private var started = false
  private var decompressor: (any StreamDecompressor)?
  /// Room for compressed data read and not decoded yet.
  private var compressed: [UInt8] = []
  /// Bytes read (or decoded) and not handed out yet.
  private var pending: [UInt8] = []
  private var pendingStart = 0
  /// An error found after bytes this read hands out: thrown at the next read.
  private var failure: DataError?

  /// Opens `path`, or standard input for nil or `-`.
  init(path: String?) throws(DataError) {
    guard let path, path != "-" else {
      name = "<stdin>"
      descriptor = 0
      size = nil
      return
    }
    name = path
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else {
      let reason =
        switch errno {
        case ENOENT: "no such file"
        case EACCES: "permission denied"
        default: String(cString: strerror(errno))
        }
      throw DataError.file(path, reason)
    }
    var info = stat()
    if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
      close(fd)
      throw DataError.file(path, "is a directory, not a data file")
    }
    descriptor = fd
    size = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
  }

  deinit {
    if descriptor != 0 { close(descriptor) }
  }

  /// Whether everything has been handed out: the next read would give nothing. A regular
  /// file ends where a read finds nothing more, not at the size it had when opened: a file
  /// that grows while it is read (a log being written) is read to its new end.
  var isExhausted: Bool {
    guard started, pendingStart >= pending.count else { return false }
    if let decompressor { return decompressor.finished }
    return rawEnded
  }

  /// Whether the next read would return at once: the input is a regular file, has bytes
  /// waiting, is at its end, or (a pipe, a terminal) has bytes within `milliseconds`. False
  /// when a stream pauses (`tail -f` between lines).
  func hasData(within milliseconds: Int32) -> Bool {
    guard size == nil, decompressor == nil, !rawEnded, pendingStart >= pending.count else {
      return true
    }
    var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    while true {
      let ready = poll(&request, 1, milliseconds)
      if ready < 0 && errno == EINTR { continue }
      // An error or a hang-up: a read will say so at once.
      return ready != 0
    }
  }

  /// The file kept open to read back records' text by byte range: nil for standard input,
  /// anything but a regular file, and compressed data (its bytes are not the records' text).
  func recordFile() -> RecordFile? {
    guard descriptor != 0, size != nil, started, decompressor == nil else { return nil }
    return RecordFile(duplicating: descriptor)
  }

  /// Whether the input is a stream (standard input, a pipe, a terminal), whose reads give what
  /// has come rather than all that was asked.
  var isStream: Bool { size == nil }

  /// Whether the input is compressed data being decompressed.
  var isCompressed: Bool { decompressor != nil }

  /// The first `count` bytes (fewer when the input is shorter): what a format is sniffed by.
  func prefix(_ count: Int) throws(DataError) -> [UInt8] {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
    defer { buffer.deallocate() }
    var filled = 0
    while filled < count {
      let n = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
      guard n > 0 else { break }
      filled += n
    }
    return Array(buffer[..<filled])
  }

  /// The first `count` bytes still to read (fewer when the input is shorter), left to read:
  /// what a format is sniffed by on standard input, before the format's reader reads it.
  func peek(_ count: Int) throws(DataError) -> [UInt8] {
    let first = try prefix(count)
    pending = first + pending[pendingStart...]
    pendingStart = 0
    return first
  }

  /// Reads `count` bytes, or fewer only where the input ends: a buffer grows as bytes arrive,
  /// so a length a damaged header claims reserves no more than the input holds (and a few
  /// megabytes).
  func read(exactly count: Int) throws(DataError) -> [UInt8] {
    var bytes: [UInt8] = []
    while bytes.count < count {
      var piece = [UInt8](repeating: 0, count: Swift.min(count - bytes.count, 16 << 20))
      let result: Result<Int, DataError> = piece.withUnsafeMutableBytes { raw in
        Result { () throws(DataError) -> Int in
          var filled = 0
          while filled < raw.count {
            let n = try read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
            guard n > 0 else { break }
            filled += n
          }
          return filled
        }
      }
      let got = try result.get()
      if bytes.isEmpty && got == piece.count {
        bytes = piece
      } else {
        bytes += piece[..<got]
      }
      if got < piece.count { break }
    }
    return bytes
  }

  /// Reads up to `destination.count` bytes into `destination` and returns how many were read:
  /// 0 only at the end of the input (or for an empty `destination`). A pipe gives what it
  /// has, so records that arrive slowly are filtered as they come instead of waiting for a
  /// full block.
  func read(into destination: UnsafeMutableRawBufferPointer) throws(DataError) -> Int {
    if !started { try start() }
    if let failure {
      self.failure = nil
      throw failure
    }
    var taken = 0
    repeat {
      if pendingStart >= pending.count {
        pending.removeAll(keepingCapacity: true)
        pendingStart = 0
        if decompressor != nil {
          do {
            guard let chunk = try inflated() else { return taken }
            pending = chunk
          } catch  where taken > 0 {
            // The data before the damage first, as a reader of any block size gets it: the
            // damage is said at the next read.
            failure = error
            return taken
          }
        } else {
          return taken
            + (try readRaw(into: UnsafeMutableRawBufferPointer(rebasing: destination[taken...])))
        }
      }
      let take = Swift.min(destination.count - taken, pending.count - pendingStart)
      pending.withUnsafeBytes { pending in
        UnsafeMutableRawBufferPointer(rebasing: destination[taken..<taken + take]).copyMemory(
          from: UnsafeRawBufferPointer(rebasing: pending[pendingStart..<pendingStart + take]))
      }
      pendingStart += take
      taken += take
      // A regular file's compressed data fills the request, as the file itself would (a long
      // record then grows the buffer by doubling, not a piece at a time); a pipe's gives
      // what one piece holds.
    } while taken < destination.count && decompressor != nil && size != nil
    return taken
  }

  /// Reads as ``read(into:)`` does, more after bytes the caller has not used yet: an error is
  /// kept for the next read, so that those bytes are used first.
  func readMore(into destination: UnsafeMutableRawBufferPointer) -> Int {
    do {
      return try read(into: destination)
    } catch {
      failure = error
      return 0
    }
  }

  /// The next piece of compressed data decoded (reading compressed bytes as it needs them),
  /// nil at the end.
  private func inflated() throws(DataError) -> [UInt8]? {
    while true {
      do throws(DecompressionFailure) {
        guard let chunk = try decompressor?.nextPiece(limit: 1 << 20) else { return nil }
        if !chunk.isEmpty { return chunk }
      } catch {
        let place = error.offset.map { " at compressed byte \($0)" } ?? ""
        let format = decompressor?.format ?? "compressed"
        throw DataError.file(name, "is not valid \(format) data (\(error.description))\(place)")
      }
      // (Room made once, read into again and again: not zeroed at every read.)
      // (At most the file's size: a small file's room is small.)
      if compressed.isEmpty {
        compressed = [UInt8](repeating: 0, count: Swift.min(4 << 20, Swift.max(1 << 16, size ?? 0)))
      }
      let read = try compressed.withRawBytes { raw throws(DataError) in try readRaw(into: raw) }
      if read == 0 {
        decompressor?.endInput()
      } else {
        decompressor?.feed(compressed[..<read])
      }
    }
  }

  /// Reads the first bytes, to see whether they are compressed.
  private func start() throws(DataError) {
    started = true
    var first: [UInt8] = []
    while StreamDecompressors.needsMore(first), try first.append(upTo: 1 << 16, readRaw(into:)) > 0
    {}
    if let found = StreamDecompressors.decompressor(for: first) {
      decompressor = found
      decompressor?.feed(first[...])
      if rawEnded { decompressor?.endInput() }
    } else {
      pending = first
    }
  }

  /// Reads raw bytes (compressed, for gzip data) into `destination`: all it holds from a
  /// regular file unless the file ends first; from a stream, what one read gives.
  private func readRaw(into destination: UnsafeMutableRawBufferPointer) throws(DataError) -> Int {
    guard !rawEnded, destination.baseAddress != nil else { return 0 }
    let filled: Int
    let ended: Bool
    if let size {
      // (`size` is a hint: the file may have grown or shrunk since.)
      let split =
        destination.count >= ByteInput.splitReads && size - rawRead >= ByteInput.splitReads
      (filled, ended) =
        split
        ? try splitRead(into: destination)
        : try Self.read(descriptor, into: destination, at: rawRead, name: name)
    } else {
      (filled, ended) = try Self.read(descriptor, into: destination, at: nil, name: name)
    }
    rawRead += filled
    if ended { rawEnded = true }
    return filled
  }

  /// A read of a regular file at least this long, with at least as much of the file left (by
  /// its size when opened), is made in two halves at once, one on each core: a read is a copy
  /// from the system's cache, and the parse waits for it.
  static let splitReads = 1 << 20

  /// Reads `destination`'s two halves from the file at once; returns how many bytes from its
  /// start were read (a short first half ends the read there: what the second read, if the
  /// file grew in between, is read again next time) and whether the file ended.
  private func splitRead(into destination: UnsafeMutableRawBufferPointer) throws(DataError) -> (
    Int, ended: Bool
  ) {
    let half = destination.count / 2
    let halves = [
      UnsafeMutableRawBufferPointer(rebasing: destination[..<half]),
      UnsafeMutableRawBufferPointer(rebasing: destination[half...]),
    ]
    var results = [Result<(Int, ended: Bool), DataError>](
      repeating: .success((0, false)), count: 2)
    let (descriptor, offset, name) = (self.descriptor, rawRead, self.name)
    results.withUnsafeMutableBufferPointer { results in
      let work = SplitRead(halves: halves, results: results)
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        work.results[index] = Result { () throws(DataError) in
          try Self.read(
            descriptor, into: work.halves[index], at: offset + index * half, name: name)
        }
      }
    }
    let (first, ended) = try results[0].get()
    guard first == half, !ended else { return (first, ended) }
    let (second, secondEnded) = try results[1].get()
    return (half + second, secondEnded)
  }

  /// The halves of a split read and where each one's outcome goes, each used by one thread.
  private struct SplitRead: @unchecked Sendable {
    let halves: [UnsafeMutableRawBufferPointer]
    let results: UnsafeMutableBufferPointer<Result<(Int, ended: Bool), DataError>>
  }

  /// Reads into `destination` from `descriptor`: at `offset` (a regular file) all it holds
  /// unless the file ends first, or (a stream, no offset) what one read gives. Returns how
  /// many bytes were read and whether the input ended.
  private static func read(
    _ descriptor: Int32, into destination: UnsafeMutableRawBufferPointer, at offset: Int?,
    name: String
  ) throws(DataError) -> (Int, ended: Bool) {
    guard let base = destination.baseAddress else { return (0, false) }
    let count = destination.count
    var filled = 0
    while filled < count {
      let n =
        if let offset {
          pread(descriptor, base + filled, count - filled, off_t(offset + filled))
        } else {
          systemRead(descriptor, base + filled, count - filled)
        }
      if n > 0 {
        filled += n
        if offset == nil { break }
      } else if n == 0 {
        return (filled, true)
      } else if errno != EINTR {
        throw DataError.file(name, "cannot be read (\(String(cString: strerror(errno))))")
      }
    }
    return (filled, false)
  }
}

extension [UInt8] {
  /// Appends up to `count` bytes: as many as `fill` says it wrote into room made for them
  /// at the end (zeroed first: an array's elements are always set).
  mutating func append<E: Error>(
    upTo count: Int, _ fill: (UnsafeMutableRawBufferPointer) throws(E) -> Int
  ) throws(E) -> Int {
    let start = self.count
    append(contentsOf: repeatElement(0, count: count))
    var written = 0
    defer { removeLast(count - Swift.min(Swift.max(written, 0), count)) }
    written = try withRawBytes { raw throws(E) in
      try fill(UnsafeMutableRawBufferPointer(rebasing: raw[start...]))
    }
    return written
  }

  /// `kept`, then up to `count` bytes that `fill` writes after them (it returns how many), in
  /// a new array whose room is not zeroed first.
  init<E: Error>(
    _ kept: ArraySlice<UInt8>, thenUpTo count: Int,
    _ fill: (UnsafeMutableRawBufferPointer) throws(E) -> Int
  ) throws(E) {
    var failure: E?
    self.init(unsafeUninitializedCapacity: kept.count + count) { space, filled in
      _ = UnsafeMutableBufferPointer(rebasing: space[..<kept.count]).initialize(
        fromContentsOf: kept)
      var written = 0
      do throws(E) {
        written = try fill(
          UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: space[kept.count...])))
      } catch {
        failure = error
      }
      filled = kept.count + Swift.min(Swift.max(written, 0), count)
    }
    if let failure { throw failure }
  }

  /// `withUnsafeMutableBytes` keeping the type of what `body` throws.
  mutating func withRawBytes<R, E: Error>(
    _ body: (UnsafeMutableRawBufferPointer) throws(E) -> R
  ) throws(E) -> R {
    try withUnsafeMutableBytes { raw in Result { () throws(E) in try body(raw) } }.get()
  }
}

extension InflateError: CustomStringConvertible {
  var description: String {
    switch self {
    case .truncated: "it ends before the compressed data does"
    case .invalid(let what): "it has \(what)"
    }
  }
}
