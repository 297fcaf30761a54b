#if canImport(Glibc)
  import Glibc
  private let systemSocket = Glibc.socket
  private let systemConnect = Glibc.connect
  private let systemSend = Glibc.send
  private let streamType = Int32(SOCK_STREAM.rawValue)
#elseif canImport(Darwin)
  import Darwin
  private let systemSocket = Darwin.socket
  private let systemConnect = Darwin.connect
  private let systemSend = Darwin.send
  private let streamType = SOCK_STREAM
#endif

/// How long a socket waits for the server to send something.
enum SocketWait: Sendable {
  /// As long as it takes (a query may take long before its first row).
  case forever
  /// At most this many seconds for each read (`read_timeout`).
  case eachRead(seconds: Int)
  /// Until a moment, which `seconds` after the start (`connect_timeout`) named: a deadline
  /// over connecting, TLS and signing in together.
  case until(ContinuousClock.Instant, seconds: Int)

  /// A deadline `seconds` from now; forever for nil.
  static func within(_ seconds: Int?) -> SocketWait {
    guard let seconds else { return .forever }
    return .until(.now + .seconds(seconds), seconds: seconds)
  }

  /// The milliseconds left to wait now (-1: for ever), 0 once a deadline has passed.
  var milliseconds: Int32 {
    switch self {
    case .forever: return -1
    case .eachRead(let seconds):
      return Int32(clamping: seconds.multipliedReportingOverflow(by: 1000).partialValue)
    case .until(let deadline, _):
      let left = ContinuousClock.now.duration(to: deadline).components
      guard left.seconds >= 0 else { return 0 }
      let whole = left.seconds.multipliedReportingOverflow(by: 1000)
      return Int32(
        clamping: whole.overflow
          ? Int64.max : whole.partialValue + left.attoseconds / 1_000_000_000_000_000)
    }
  }

  /// Whether a deadline has passed.
  var hasExpired: Bool {
    if case .until(let deadline, _) = self { return .now >= deadline }
    return false
  }

  /// The error when the wait runs out.
  var expired: DatabaseError {
    switch self {
    case .forever, .eachRead:
      let seconds = if case .eachRead(let seconds) = self { seconds } else { 0 }
      return DatabaseError(
        "PostgreSQL sent nothing for \(seconds) s",
        help:
          "the server is busy or unreachable; wait longer with ?read_timeout=SECONDS (or connect_timeout while connecting)"
      )
    case .until(_, let seconds):
      return DatabaseError(
        "connecting to PostgreSQL took longer than \(seconds) s",
        help:
          "the server is busy or unreachable; allow longer with ?connect_timeout=SECONDS (0: no limit)"
      )
    }
  }
}

/// A stream socket to a server, over TCP or a Unix socket, with a read buffer, and TLS once
/// ``startTLS(_:)`` has run. Never raises SIGPIPE; every failure is a ``DatabaseError``.
final class PostgresSocket {
  private var descriptor: Int32
  private var buffer: [UInt8] = []
  private var position = 0
  /// Where `recv` writes, reused from read to read.
  private var chunk = [UInt8](repeating: 0, count: 65_536)
  /// How long a read waits for the server.
  var wait = SocketWait.forever
  /// The TLS session once it has begun: every byte after goes through it.
  private(set) var tls: TLSSession?

  /// Connects to `host` (a name, an address, or a socket directory starting with `/`) and
  /// `port`, waiting as `wait` says for the connection.
  init(host: String, port: Int, wait: SocketWait = .forever) throws(DatabaseError) {
    if host.hasPrefix("/") {
      descriptor = try Self.unix(path: host + "/.s.PGSQL.\(port)")
    } else {
      descriptor = try Self.tcp(host: host, port: port, wait: wait)
    }
    self.wait = wait
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

  private static func tcp(host: String, port: Int, wait: SocketWait) throws(DatabaseError) -> Int32
  {
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
      if connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen, wait: wait) {
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

  /// Connects `fd` to `address`, waiting as `wait` says; false (with `errno` set) when it
  /// cannot.
  private static func connect(
    _ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t, wait: SocketWait
  ) -> Bool {
    if case .forever = wait { return systemConnect(fd, address, length) == 0 }
    let flags = fcntl(fd, F_GETFL)
    _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    defer { _ = fcntl(fd, F_SETFL, flags) }
    if systemConnect(fd, address, length) == 0 { return true }
    guard errno == EINPROGRESS else { return false }
    guard Self.wait(fd, for: Int16(POLLOUT), milliseconds: wait.milliseconds) else {
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

  /// Waits until `fd` is ready for `events`, at most `milliseconds` (-1: for ever): false
  /// when the time ran out.
  private static func wait(_ fd: Int32, for events: Int16, milliseconds: Int32) -> Bool {
    var entry = pollfd(fd: fd, events: events, revents: 0)
    while true {
      let ready = poll(&entry, 1, milliseconds)
      if ready < 0 && errno == EINTR { continue }
      // (An error is reported by the read or the connection that follows.)
      return ready != 0
    }
  }

  /// Writes all of `bytes` (through TLS once it has begun).
  func write(_ bytes: [UInt8]) throws(DatabaseError) {
    if let tls {
      try tls.write(bytes, over: self)
    } else {
      try send(bytes[...])
    }
  }

  /// Gives back the room of a very long message once it has been read (the caller no longer
  /// holds it): what came after it, at most a read's worth, moves to a buffer of its own.
  func giveBackRoom() {
    if buffer.capacity > 4 << 20 && buffer.count - position <= chunk.count {
      buffer = Array(buffer[position...])
      position = 0
    }
  }

  /// The bytes the socket's buffer holds room for (tests check that a long message's is given
  /// back).
  var room: Int { buffer.capacity }

  /// Exactly `count` bytes.
  func read(_ count: Int) throws(DatabaseError) -> ArraySlice<UInt8> {
    giveBackRoom()
    while buffer.count - position < count {
      if position > 0 {
        buffer.removeFirst(position)
        position = 0
      }
      // A long message (a value of hundreds of megabytes) gets room for itself, not the
      // next power of two past it: once half of it has come (a length alone, from a
      // hostile server, reserves nothing).
      if buffer.capacity < count && buffer.count >= count / 2 { buffer.reserveCapacity(count) }
      let n: Int
      if let tls {
        n = try tls.read(into: &chunk, over: self)
      } else {
        n = try receive(into: &chunk)
      }
      guard n > 0 else { throw DatabaseError("PostgreSQL closed the connection") }
      buffer += chunk[..<n]
    }
    defer { position += count }
    return buffer[position..<position + count]
  }

  /// The next message: its type and body.
  func readMessage() throws(DatabaseError) -> (UInt8, ArraySlice<UInt8>) {
    let header = try read(5)
    let type = header[header.startIndex]
    let length = header.dropFirst().reduce(Int32(0)) { $0 << 8 | Int32($1) }
    // A message longer than 1 GiB is not one PostgreSQL sends.
    guard length >= 4, length <= 1 << 30 else {
      throw DatabaseError("PostgreSQL sent a malformed message (length \(length))")
    }
    return (type, try read(Int(length) - 4))
  }

  /// Begins TLS over this connection with `session`'s handshake; what was read before must
  /// all have been used (bytes the server sent before the handshake, in clear text, are
  /// refused: a man in the middle could have put them there).
  func startTLS(_ session: TLSSession) throws(DatabaseError) {
    guard position == buffer.count else {
      throw DatabaseError(
        "PostgreSQL sent data in clear text before TLS began",
        help: "someone between flt and the server may be tampering with the connection")
    }
    try session.handshake(over: self)
    tls = session
  }

  /// Sends all of `bytes` on the socket itself (TLS's records, or clear text).
  func send(_ bytes: ArraySlice<UInt8>) throws(DatabaseError) {
    var sent = 0
    while sent < bytes.count {
      let n = bytes.dropFirst(sent).withUnsafeBytes {
        systemSend(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        throw DatabaseError("the connection to PostgreSQL broke: \(Self.errorText())")
      }
      sent += n
    }
  }

  /// Receives what the socket has into `bytes`, waiting as ``wait`` says: the count, 0 when
  /// the server closed the connection.
  func receive(into bytes: inout [UInt8]) throws(DatabaseError) -> Int {
    while true {
      if case .forever = wait {
      } else if !Self.wait(descriptor, for: Int16(POLLIN), milliseconds: wait.milliseconds) {
        throw wait.expired
      }
      let n = bytes.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else {
        throw DatabaseError("the connection to PostgreSQL broke: \(Self.errorText())")
      }
      return n
    }
  }

  private static func errorText() -> String { String(cString: strerror(errno)) }
}
