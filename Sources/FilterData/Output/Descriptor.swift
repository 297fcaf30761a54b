#if canImport(Glibc)
  import Glibc
  private let systemWrite = Glibc.write
  private let systemRead = Glibc.read
#elseif canImport(Darwin)
  import Darwin
  private let systemWrite = Darwin.write
  private let systemRead = Darwin.read
#endif

/// Writing to file descriptors with `write(2)`: the one loop every writer of the project uses;
/// and reading a small file whole.
package enum Descriptor {
  /// The size of the terminal `descriptor` is, in columns and rows; nil when it is not one
  /// (or cannot say).
  package static func terminalSize(_ descriptor: Int32) -> (columns: Int, rows: Int)? {
    var size = winsize()
    guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0
    else { return nil }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  /// Writes all of `bytes` to `descriptor`, going on after interruptions and short writes.
  /// Nil on success, else the reason it stopped (`strerror`); never traps.
  @discardableResult
  package static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> String? {
    guard let base = bytes.baseAddress else { return nil }
    var written = 0
    while written < bytes.count {
      let n = systemWrite(descriptor, base + written, bytes.count - written)
      if n > 0 {
        written += n
      } else if n < 0 && errno == EINTR {
        continue
      } else {
        return n == 0 ? "nothing was written" : String(cString: strerror(errno))
      }
    }
    return nil
  }

  /// Up to `count` bytes read from `descriptor`, going on after interruptions and short
  /// reads, until `count` or the end: fewer on an error.
  package static func read(_ descriptor: Int32, count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: Swift.max(0, count))
    var filled = 0
    while filled < bytes.count {
      let n = bytes.withUnsafeMutableBytes { raw -> Int in
        guard let base = raw.baseAddress else { return 0 }
        return systemRead(descriptor, base + filled, raw.count - filled)
      }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { break }
      filled += n
    }
    return Array(bytes[..<filled])
  }

  /// Writes all of `bytes` to `descriptor`; nil on success, else the reason.
  @discardableResult
  package static func write(_ bytes: [UInt8], to descriptor: Int32) -> String? {
    bytes.withUnsafeBytes { write($0, to: descriptor) }
  }
}
