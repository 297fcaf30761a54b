#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A regular file read at offsets (`pread`): what a format whose metadata says where its parts
/// lie reads (Arrow's footer). Every read is checked against the file's size first, so a
/// length the metadata claims reserves nothing the file does not hold.
final class RandomAccessFile {
  /// The path, as messages name it.
  let path: String
  /// The size when opened.
  let size: Int
  private let descriptor: Int32

  /// Opens the regular file at `path`; `format` names what it is read as in the error for
  /// anything else (`Arrow`).
  init(path: String, format: String) throws(DataError) {
    self.path = path
    descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw DataError.file(
        path, errno == ENOENT ? "no such file" : String(cString: strerror(errno)))
    }
    var info = stat()
    guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      close(descriptor)
      throw DataError.file(path, "is not a regular file; \(format) is read from a file")
    }
    size = Int(info.st_size)
  }

  deinit { close(descriptor) }

  /// `count` bytes at `offset`; nil, with nothing reserved, when the file does not hold them.
  func bytes(at offset: Int, count: Int) -> [UInt8]? {
    guard offset >= 0, count >= 0, offset <= size, count <= size - offset else { return nil }
    var bytes = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let got = bytes.withUnsafeMutableBytes { raw -> Int in
        guard let base = raw.baseAddress else { return -1 }
        return pread(descriptor, base + done, count - done, off_t(offset + done))
      }
      if got < 0 && errno == EINTR { continue }
      guard got > 0 else { return nil }
      done += got
    }
    return bytes
  }
}
