#if canImport(Glibc)
  import Glibc
  private let systemWrite = Glibc.write
#elseif canImport(Darwin)
  import Darwin
  private let systemWrite = Darwin.write
#endif

/// Writing to file descriptors with `write(2)`: the one loop every writer of the project uses.
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

  /// Writes all of `bytes` to `descriptor`; nil on success, else the reason.
  @discardableResult
  package static func write(_ bytes: [UInt8], to descriptor: Int32) -> String? {
    bytes.withUnsafeBytes { write($0, to: descriptor) }
  }
}
