#if canImport(Glibc)
  import Glibc
  private let systemRead = Glibc.read
#elseif canImport(Darwin)
  import Darwin
  private let systemRead = Darwin.read
#endif

/// A file or standard input read in large blocks, straight into byte arrays.
final class ByteInput {
  /// The name used in messages: the path, or `<stdin>`.
  let name: String
  /// The size of the file when known (not for pipes), for progress reports.
  let size: Int?
  private let descriptor: Int32
  /// Bytes read so far.
  private(set) var bytesRead = 0

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

  /// Appends up to `count` bytes to `buffer` and returns how many were read: 0 only at the
  /// end of the input. A pipe gives what it has, so records that arrive slowly are filtered
  /// as they come instead of waiting for a full block.
  func read(into buffer: inout [UInt8], upTo count: Int) throws(DataError) -> Int {
    let start = buffer.count
    var filled = 0
    var failure: Int32 = 0
    buffer.append(contentsOf: repeatElement(0, count: count))
    buffer.withUnsafeMutableBytes { raw in
      guard let base = raw.baseAddress else { return }
      while filled < count {
        let n = systemRead(descriptor, base + start + filled, count - filled)
        if n > 0 {
          filled += n
          if size == nil { break }
        } else if n == 0 {
          break
        } else if errno != EINTR {
          failure = errno
          break
        }
      }
    }
    buffer.removeLast(count - filled)
    bytesRead += filled
    if failure != 0 {
      throw DataError.file(name, "cannot be read (\(String(cString: strerror(failure))))")
    }
    return filled
  }
}
