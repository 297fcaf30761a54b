// Shared with the fuzzer: `Fuzz/run` compiles this file into its harnesses (its import of
// FilterDatabase dropped), so keep it to FilterDatabase and the system library.
@testable import FilterDatabase

#if canImport(Glibc)
  import Glibc
  private let streamType = Int32(SOCK_STREAM.rawValue)
#elseif canImport(Darwin)
  import Darwin
  private let streamType = SOCK_STREAM
#endif

/// A PostgreSQL server played from bytes: the other end of a socket pair, which sends the
/// given bytes and then stops sending. Its ends stay open (so that the client's messages go
/// somewhere) until ``stop()``.
final class ScriptedServer {
  private var ends: [Int32] = []

  /// A valid startup: authentication done, the server's key, ready for a query.
  static let ready =
    message("R", PostgresMessage.int32(0))
    + message("K", PostgresMessage.int32(1) + PostgresMessage.int32(2))
    + message("Z", [UInt8(ascii: "I")])

  /// A message of `type` with `body`, framed.
  static func message(_ type: Character, _ body: [UInt8]) -> [UInt8] {
    PostgresMessage.frame(type.asciiValue, body)
  }

  /// A client connected to a server that sends `bytes`, then closes its side (or, when
  /// `staysOpen`, sends nothing more but stays); its errors are the client's. `url` may say
  /// timeouts; unless it says an `sslmode`, the client does not ask for TLS.
  func connect(
    _ bytes: [UInt8], staysOpen: Bool = false,
    url: String = "postgresql://u:p@localhost/db?sslmode=disable"
  ) throws(DatabaseError) -> PostgresConnection {
    var pair: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, streamType, 0, &pair) == 0 else { fatalError("socketpair") }
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes { write(pair[0], $0.baseAddress, $0.count) }
      guard n > 0 else { fatalError("cannot write the server's bytes") }
      sent += n
    }
    if !staysOpen { shutdown(pair[0], Int32(SHUT_WR)) }
    ends.append(pair[0])
    return try PostgresConnection(PostgresURL(url), over: PostgresSocket(descriptor: pair[1]))
  }

  /// Closes the server's ends.
  func stop() {
    for end in ends { close(end) }
    ends.removeAll()
  }

  deinit { stop() }
}
