#if canImport(Glibc)
  import Glibc
  private let systemSocket = Glibc.socket
  private let systemConnect = Glibc.connect
  private let streamType = Int32(SOCK_STREAM.rawValue)
#elseif canImport(Darwin)
  import Darwin
  private let systemSocket = Darwin.socket
  private let systemConnect = Darwin.connect
  private let streamType = SOCK_STREAM
#endif

/// A stream socket to a server, over TCP or a Unix socket, with a read buffer. Never raises
/// SIGPIPE; every failure is a ``DatabaseError``.
final class PostgresSocket {
  private var descriptor: Int32
  private var buffer: [UInt8] = []
  private var position = 0
  /// Where `recv` writes, reused from read to read.
  private var chunk = [UInt8](repeating: 0, count: 65_536)
  /// The longest a read waits for the server to send something, in seconds; nil for ever
  /// (a query may take long before its first row).
  var timeout: Int?

  /// Connects to `host` (a name, an address, or a socket directory starting with `/`) and
  /// `port`, waiting at most `timeout` seconds for the connection (nil: as long as the
  /// system does).
  init(host: String, port: Int, timeout: Int? = nil) throws(DatabaseError) {
    if host.hasPrefix("/") {
      descriptor = try Self.unix(path: host + "/.s.PGSQL.\(port)")
    } else {
      descriptor = try Self.tcp(host: host, port: port, timeout: timeout)
    }
  }

  /// A socket already connected (tests and the fuzzer play the server on the other end of
  /// a socket pair); it is closed with this object.
  init(descriptor: Int32) { self.descriptor = descriptor }

  deinit { close(descriptor) }

  private static func unix(path: String) throws(DatabaseError) -> Int32 {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count < capacity else {
      throw DatabaseError("the socket path \(path) is too long")
    }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (i, byte) in bytes.enumerated() { raw[i] = byte }
    }
    let fd = systemSocket(AF_UNIX, streamType, 0)
    guard fd >= 0 else { throw DatabaseError("cannot make a socket: \(errorText())") }
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        systemConnect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard status == 0 else {
      let reason = errorText()
      close(fd)
      throw DatabaseError(
        "cannot connect to PostgreSQL at \(path): \(reason)",
        help: "is the server running, and is this its socket directory and port?")
    }
    return fd
  }

  private static func tcp(host: String, port: Int, timeout: Int?) throws(DatabaseError) -> Int32 {
    var hints = addrinfo()
    hints.ai_socktype = streamType
    hints.ai_family = AF_UNSPEC
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let first = list else {
      throw DatabaseError(
        "cannot find the host \(host): \(String(cString: gai_strerror(status)))")
    }
    defer { freeaddrinfo(list) }
    var reason = "no address"
    var entry: UnsafeMutablePointer<addrinfo>? = first
    while let info = entry {
      entry = info.pointee.ai_next
      let fd = systemSocket(
        info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
      guard fd >= 0 else { continue }
      if connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen, timeout: timeout) {
        var one: Int32 = 1
        _ = setsockopt(
          fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return fd
      }
      reason = errorText()
      close(fd)
    }
    // An IPv6 address in brackets, as a URL writes it, so that its port stands apart.
    let shown = host.contains(":") ? "[\(host)]" : host
    throw DatabaseError(
      "cannot connect to PostgreSQL at \(shown):\(port): \(reason)",
      help: "is the server running, and listening on this address and port?")
  }

  /// Connects `fd` to `address`, waiting at most `timeout` seconds; false (with `errno`
  /// set) when it cannot.
  private static func connect(
    _ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t, timeout: Int?
  ) -> Bool {
    guard let timeout else { return systemConnect(fd, address, length) == 0 }
    let flags = fcntl(fd, F_GETFL)
    _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    defer { _ = fcntl(fd, F_SETFL, flags) }
    if systemConnect(fd, address, length) == 0 { return true }
    guard errno == EINPROGRESS else { return false }
    guard wait(fd, for: Int16(POLLOUT), seconds: timeout) else {
      errno = ETIMEDOUT
      return false
    }
    var failure: Int32 = 0
    var size = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &size) == 0, failure == 0 else {
      errno = failure
      return false
    }
    return true
  }

  /// Waits until `fd` is ready for `events`, at most `seconds`: false when the time ran out.
  private static func wait(_ fd: Int32, for events: Int16, seconds: Int) -> Bool {
    let milliseconds = Int32(clamping: seconds.multipliedReportingOverflow(by: 1000).partialValue)
    var entry = pollfd(fd: fd, events: events, revents: 0)
    while true {
      let ready = poll(&entry, 1, milliseconds)
      if ready < 0 && errno == EINTR { continue }
      // (An error is reported by the read or the connection that follows.)
      return ready != 0
    }
  }

  /// Writes all of `bytes`.
  func write(_ bytes: [UInt8]) throws(DatabaseError) {
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes { raw in
        send(descriptor, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
      }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        throw DatabaseError("the connection to PostgreSQL broke: \(Self.errorText())")
      }
      sent += n
    }
  }

  /// Exactly `count` bytes.
  func read(_ count: Int) throws(DatabaseError) -> ArraySlice<UInt8> {
    while buffer.count - position < count {
      if position > 0 {
        buffer.removeFirst(position)
        position = 0
      }
      if let timeout, !Self.wait(descriptor, for: Int16(POLLIN), seconds: timeout) {
        throw DatabaseError(
          "PostgreSQL sent nothing for \(timeout) s",
          help:
            "the server is busy or unreachable; wait longer with ?read_timeout=SECONDS (or connect_timeout while connecting)"
        )
      }
      let n = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        throw DatabaseError(
          n == 0
            ? "PostgreSQL closed the connection"
            : "the connection to PostgreSQL broke: \(Self.errorText())")
      }
      buffer += chunk[..<n]
    }
    defer { position += count }
    return buffer[position..<position + count]
  }

  private static func errorText() -> String { String(cString: strerror(errno)) }
}
