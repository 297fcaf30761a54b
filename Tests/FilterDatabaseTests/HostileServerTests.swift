import Dispatch
import FilterSQL
import Testing

@testable import FilterDatabase

#if canImport(Glibc)
  import Glibc
  private let streamType = Int32(SOCK_STREAM.rawValue)
#elseif canImport(Darwin)
  import Darwin
  private let streamType = SOCK_STREAM
#endif

/// The PostgreSQL client against a server that sends what it likes (the other end of a socket
/// pair, which sends its bytes and closes): every broken answer is a DatabaseError, never a
/// trap or a hang. (`Fuzz/run postgres` sends arbitrary ones.)
@Suite struct HostileServerTests {
  static func message(_ type: Character, _ body: [UInt8]) -> [UInt8] {
    ScriptedServer.message(type, body)
  }

  static let ready = ScriptedServer.ready

  /// What `use` does with a client connected to a server that sends `bytes`, then stops
  /// sending (the server stays open until `use` is done).
  static func connect<T>(
    _ bytes: [UInt8], _ use: (PostgresConnection) throws(DatabaseError) -> T
  ) throws(DatabaseError) -> T {
    let server = ScriptedServer()
    defer { server.stop() }
    return try use(try server.connect(bytes))
  }

  static func query(_ answer: [UInt8]) -> Result<[[SQLValue]], DatabaseError> {
    Result { () throws(DatabaseError) in
      try connect(ready + answer) { (client) throws(DatabaseError) in
        try client.rows(SQLStatement("select 1"))
      }
    }
  }

  static let oneColumn =
    message(
      "T",
      PostgresMessage.int16(1) + PostgresMessage.cString("a") + PostgresMessage.int32(0)
        + PostgresMessage.int16(0) + PostgresMessage.int32(25) + PostgresMessage.int16(-1)
        + PostgresMessage.int32(-1) + PostgresMessage.int16(0))

  @Test func aServerThatStopsSendingIsGivenUpOnAfterTheTimeout() throws {
    let server = ScriptedServer()
    defer { server.stop() }
    // Connected, then silent during a query: read_timeout.
    let client = try server.connect(
      Self.ready, staysOpen: true,
      url: "postgresql://u:p@localhost/db?read_timeout=1&sslmode=disable")
    let started = ContinuousClock.now
    let error = #expect(throws: DatabaseError.self) {
      try client.rows(SQLStatement("select 1"))
    }
    #expect(error?.message == "PostgreSQL sent nothing for 1 s")
    #expect(error?.help?.contains("read_timeout") == true)
    #expect(ContinuousClock.now - started < .seconds(10))
    // Silent before authentication is done: connect_timeout.
    let silent = #expect(throws: DatabaseError.self) {
      _ = try server.connect(
        [], staysOpen: true, url: "postgresql://u:p@localhost/db?connect_timeout=1&sslmode=disable")
    }
    #expect(silent?.message == "connecting to PostgreSQL took longer than 1 s")
    #expect(silent?.help?.contains("connect_timeout") == true)
    // Silent after the request for TLS: the same deadline.
    let silentTLS = #expect(throws: DatabaseError.self) {
      _ = try server.connect(
        [], staysOpen: true, url: "postgresql://u:p@localhost/db?connect_timeout=1&sslmode=require")
    }
    #expect(silentTLS?.message == "connecting to PostgreSQL took longer than 1 s")
    // A server that asks for ten million SCRAM iterations (extending the client's nonce, as
    // it must): the deadline stops the key's derivation too.
    let slow = Self.converse(
      [{ _ in Self.scramMechanisms }, { Self.serverFirst(answering: $0, iterations: 10_000_000) }],
      url: "connect_timeout=1&sslmode=disable")
    #expect(slow?.message == "connecting to PostgreSQL took longer than 1 s")
    // A deadline that has passed leaves no time; one a day away, a day.
    #expect(SocketWait.until(.now - .seconds(1), seconds: 1).milliseconds == 0)
    #expect((86_000_000...86_400_000).contains(SocketWait.within(86_400).milliseconds))
    #expect(SocketWait.within(nil).milliseconds == -1)
  }

  @Test func aWellFormedAnswerIsRead() throws {
    let row = Self.message("D", PostgresMessage.int16(1) + PostgresMessage.int32(1) + [0x78])
    let done = Self.message("C", PostgresMessage.cString("SELECT 1"))
    let answer =
      Self.message("1", []) + Self.message("2", []) + Self.oneColumn + row + done
      + Self.message("Z", [UInt8(ascii: "I")])
    #expect(try Self.query(answer).get() == [[.text("x")]])
  }

  /// A row of a long value (a 6 MB text here; 300 MB once peaked at five times its size): by
  /// the time the row is used, the socket has given back the message's room (the value is
  /// held once, as the row's text), though the rest of the answer came in the same read.
  @Test func aLongValueIsHeldOnce() throws {
    let value = [UInt8](repeating: UInt8(ascii: "v"), count: 6 << 20)
    let row = Self.message("D", PostgresMessage.int16(1) + PostgresMessage.int32(6 << 20) + value)
    let answer =
      Self.message("1", []) + Self.message("2", []) + Self.oneColumn + row
      + Self.message("C", PostgresMessage.cString("SELECT 1")) + Self.message("Z", [0x49])
    let (length, room) = try Self.connect(Self.ready + answer) {
      (client) throws(DatabaseError) -> (Int, Int) in
      var seen = (0, Int.max)
      try client.forEachRow(SQLStatement("select 1")) { row in
        if case .text(let text) = row.first { seen = (text.utf8.count, client.socketRoom) }
        return true
      }
      return seen
    }
    #expect(length == 6 << 20)
    #expect(room < 1 << 20)
  }

  /// The count of a row's values is signed on the wire: a negative one in the description and
  /// the row alike once trapped (`0..<count`), in queries and in a table's introspection.
  @Test func aNegativeColumnCountIsAnError() {
    let negative =
      Self.message("T", PostgresMessage.int16(-1))
      + Self.message("D", PostgresMessage.int16(-1))
      + Self.message("C", PostgresMessage.cString("SELECT 1"))
      + Self.message("Z", [UInt8(ascii: "I")])
    let error = #expect(throws: DatabaseError.self) { try Self.query(negative).get() }
    #expect(error?.message == "PostgreSQL sent a malformed row")
    #expect(throws: DatabaseError.self) {
      try Self.connect(Self.ready + negative) { (client) throws(DatabaseError) in
        try client.table(named: "t", typingJSON: nil)
      }
    }
  }

  @Test(arguments: [
    ("a length under 4", [UInt8(ascii: "D"), 0, 0, 0, 2]),
    ("a length over 1 GiB", [UInt8(ascii: "D"), 0x7F, 0xFF, 0xFF, 0xFF]),
    ("a negative length", [UInt8(ascii: "D"), 0xFF, 0xFF, 0xFF, 0xF0]),
    ("a message cut short", [UInt8(ascii: "D"), 0, 0, 0, 40, 0, 1]),
    ("nothing at all", []),
  ])
  func brokenFramingIsAnError(_ what: String, _ bytes: [UInt8]) {
    #expect(throws: DatabaseError.self, "\(what)") { try Self.query(Self.oneColumn + bytes).get() }
  }

  @Test func brokenRowsAreErrors() {
    let rows: [(String, [UInt8])] = [
      ("more values than columns", PostgresMessage.int16(3) + PostgresMessage.int32(-1)),
      ("a value longer than the row", PostgresMessage.int16(1) + PostgresMessage.int32(1000)),
      ("a length of -2", PostgresMessage.int16(1) + PostgresMessage.int32(-2)),
      ("a negative count", PostgresMessage.int16(-1)),
      ("an empty row", []),
    ]
    for (what, body) in rows {
      let answer = Self.oneColumn + Self.message("D", body) + Self.message("Z", [73])
      #expect(throws: DatabaseError.self, "\(what)") { try Self.query(answer).get() }
    }
  }

  @Test func brokenStartupsAreErrors() {
    let startups: [(String, [UInt8])] = [
      ("an unknown authentication", Self.message("R", PostgresMessage.int32(99))),
      ("SCRAM without mechanisms", Self.message("R", PostgresMessage.int32(10) + [0])),
      ("a SCRAM challenge out of turn", Self.message("R", PostgresMessage.int32(11) + [0x72])),
      ("md5 without its salt", Self.message("R", PostgresMessage.int32(5) + [1])),
      ("an error without fields", Self.message("E", [])),
      ("an unexpected message", Self.message("D", PostgresMessage.int16(0))),
      ("an empty authentication", Self.message("R", [])),
    ]
    for (what, bytes) in startups {
      #expect(throws: DatabaseError.self, "\(what)") { try Self.connect(bytes) { _ in } }
    }
  }

  /// The answer to the request for TLS: one byte, and nothing after it before the handshake
  /// (CVE-2021-23222: bytes a man in the middle put there would be read as the server's once
  /// TLS began); a refusal is the end when TLS is needed.
  @Test func theAnswerToTheRequestForTLS() throws {
    func connect(_ bytes: [UInt8], _ mode: String) -> Result<PostgresConnection, DatabaseError> {
      let server = ScriptedServer()
      return Result { () throws(DatabaseError) in
        try server.connect(bytes, url: "postgresql://u:p@localhost/db?sslmode=\(mode)")
      }
    }
    for mode in ["prefer", "require"] {
      let injected = #expect(throws: DatabaseError.self) {
        try connect([UInt8(ascii: "S")] + Self.ready, mode).get()
      }
      #expect(injected?.message == "PostgreSQL sent data in clear text before TLS began")
    }
    // No: prefer goes on in clear text, require stops.
    #expect(try connect([UInt8(ascii: "N")] + Self.ready, "prefer").get().encryption == nil)
    let refused = #expect(throws: DatabaseError.self) {
      try connect([UInt8(ascii: "N")] + Self.ready, "require").get()
    }
    #expect(refused?.message == "the server does not accept TLS, and sslmode=require needs it")
    let error = #expect(throws: DatabaseError.self) {
      try connect([UInt8(ascii: "E")], "prefer").get()
    }
    #expect(error?.message == "the server answered the request for TLS with an error")
    let other = #expect(throws: DatabaseError.self) {
      try connect([UInt8(ascii: "R")], "prefer").get()
    }
    #expect(other?.message == "PostgreSQL answered the request for TLS with something else")
    #expect(throws: DatabaseError.self) { try connect([], "prefer").get() }
  }

  /// A server that does not know the password cannot fake SCRAM's last step: its signature is
  /// checked, and a wrong one ends the sign-in though the server said all was well.
  @Test func aSCRAMServerFinalThatDoesNotVerify() {
    let error = Self.converse(
      [
        { _ in Self.scramMechanisms },
        { Self.serverFirst(answering: $0, iterations: 4096) },
        { _ in
          Self.message(
            "R",
            PostgresMessage.int32(12)
              + Array("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=".utf8))
            + Self.message("R", PostgresMessage.int32(0)) + Self.message("Z", [73])
        },
      ], url: "sslmode=disable")
    #expect(error?.message == "the server could not prove it knows the password (SCRAM)")
  }

  /// A cleartext request: answered with the password, as libpq does, unless channel binding is
  /// required: then nothing is sent, not even a hash.
  @Test func aCleartextRequest() {
    final class Heard: @unchecked Sendable { var bytes: [[UInt8]] = [] }
    let heard = Heard()
    let ask = Self.message("R", PostgresMessage.int32(3))
    let refused = Self.converse(
      [
        { _ in ask },
        {
          heard.bytes.append($0); return []
        },
      ],
      url: "sslmode=disable&channel_binding=require")
    #expect(
      refused?.message == "channel_binding=require, but the server asks for a password instead")
    #expect(heard.bytes.isEmpty)
    let answered = Self.converse(
      [
        { _ in ask },
        {
          heard.bytes.append($0);
          return Self.message("R", PostgresMessage.int32(0)) + Self.message("Z", [73])
        },
      ], url: "sslmode=disable")
    #expect(answered == nil)
    #expect(heard.bytes.first == Self.message("p", PostgresMessage.cString("p")))
  }

  /// A server that says yes to TLS and then answers the client's hello with bytes that are not
  /// TLS, or closes: an error, never a trap or a hang.
  @Test func aHandshakeWithNonsense() {
    for answer: [UInt8] in [
      Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8), [0x16, 0x03, 0x03, 0xff, 0xff, 0x02],
      [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28], [],
    ] {
      let error = Self.converse(
        [{ _ in [UInt8(ascii: "S")] }, { _ in answer }], url: "sslmode=require")
      #expect(error?.message.contains("TLS") == true, "\(answer): \(String(describing: error))")
    }
  }

  /// A server's offer of SCRAM-SHA-256.
  static let scramMechanisms = message(
    "R", PostgresMessage.int32(10) + PostgresMessage.cString("SCRAM-SHA-256") + [0])

  /// A SCRAM server-first message answering the client's first (extending its nonce, as it
  /// must), asking for `iterations`.
  static func serverFirst(answering clientFirst: [UInt8], iterations: Int) -> [UInt8] {
    let nonce = String(decoding: clientFirst, as: UTF8.self).split(separator: "r=").last ?? ""
    return message(
      "R", PostgresMessage.int32(11) + Array("r=\(nonce)x,s=c2FsdA==,i=\(iterations)".utf8))
  }

  /// What the client met with a server that, each time the client sends something, answers
  /// with the next of `steps` given what it sent (then closes): nil when it signed in.
  static func converse(
    _ steps: [@Sendable ([UInt8]) -> [UInt8]], url parameters: String
  ) -> DatabaseError? {
    var pair: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, streamType, 0, &pair) == 0 else { return DatabaseError("socketpair") }
    let server = pair[0]
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      var buffer = [UInt8](repeating: 0, count: 65_536)
      for step in steps {
        let n = recv(server, &buffer, buffer.count, 0)
        guard n > 0 else { break }
        let answer = step(Array(buffer[..<n]))
        _ = answer.withUnsafeBytes { send(server, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      }
      shutdown(server, Int32(SHUT_RDWR))
      done.signal()
    }
    defer {
      done.wait()
      close(server)
    }
    do throws(DatabaseError) {
      _ = try PostgresConnection(
        PostgresURL("postgresql://u:p@localhost/db?\(parameters)", environment: { _ in nil }),
        over: PostgresSocket(descriptor: pair[1]))
      return nil
    } catch {
      return error
    }
  }

  @Test func introspectionRowsOfTheWrongWidthAreNotTrusted() {
    // Found by `Fuzz/run postgres`: the columns of a table asked for three values a row, and a
    // server that described and sent one trapped the client (`row[2]`).
    let row = Self.message("D", PostgresMessage.int16(1) + PostgresMessage.int32(1) + [0x78])
    let answer =
      Self.oneColumn + row + Self.message("C", PostgresMessage.cString("SELECT 1"))
      + Self.message("Z", [73])
    #expect(throws: DatabaseError.self) {
      try Self.connect(Self.ready + answer) { (client) throws(DatabaseError) in
        try client.table(named: "t", typingJSON: nil)
      }
    }
  }

  @Test func aServerErrorKeepsItsMessage() throws {
    let error =
      PostgresMessage.cString("SERROR") + PostgresMessage.cString("C42P01")
      + PostgresMessage.cString("Mrelation \"t\" does not exist") + [0]
    let result = Self.query(Self.message("E", error) + Self.message("Z", [73]))
    guard case .failure(let failure) = result else {
      Issue.record("no error")
      return
    }
    #expect(failure.message.contains("relation \"t\" does not exist"))
  }
}
