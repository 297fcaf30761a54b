// Shared with the fuzzer: `Fuzz/run` compiles this file into its harnesses (its import of
// FilterDatabase dropped), so keep it to FilterDatabase and the system library.
import Dispatch

@testable import FilterDatabase

#if canImport(Glibc)
  import Glibc
  private let streamType = Int32(SOCK_STREAM.rawValue)
  private let noSignal = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
  import Darwin
  private let streamType = SOCK_STREAM
  private let noSignal: Int32 = 0
#endif

/// A PostgreSQL server played from bytes: the other end of a socket pair, which sends the
/// given bytes and then stops sending. Its ends stay open (so that the client's messages go
/// somewhere) until ``stop()``.
final class ScriptedServer {
  private var ends: [Int32] = []
  /// The writers of scripts longer than a socket holds, which send while the client reads.
  private let writers = DispatchGroup()

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
    let end = pair[0]
    ends.append(end)
    // What a socket surely holds is written now; a longer script (a value of megabytes) on
    // a thread of its own, as the client reads it.
    let first = Swift.min(bytes.count, 32_768)
    guard Self.deliver(bytes[..<first], on: end) else {
      fatalError("cannot write the server's bytes")
    }
    writers.enter()
    DispatchQueue.global().async { [writers] in
      defer { writers.leave() }
      if Self.deliver(bytes[first...], on: end), !staysOpen { shutdown(end, Int32(SHUT_WR)) }
    }
    return try PostgresConnection(PostgresURL(url), over: PostgresSocket(descriptor: pair[1]))
  }

  /// Sends all of `bytes` on `end`: false when the client has gone (no SIGPIPE).
  private static func deliver(_ bytes: ArraySlice<UInt8>, on end: Int32) -> Bool {
    var sent = bytes.startIndex
    while sent < bytes.endIndex {
      let n = bytes[sent...].withUnsafeBytes {
        send(end, $0.baseAddress, $0.count, noSignal)
      }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return false }
      sent += n
    }
    return true
  }

  /// Closes the server's ends (a writer still sending stops first).
  func stop() {
    for end in ends { shutdown(end, Int32(SHUT_RDWR)) }
    writers.wait()
    for end in ends { close(end) }
    ends.removeAll()
  }

  deinit { stop() }
}
