/// Connecting and signing in to PostgreSQL: TLS as the URL's `sslmode` says (asked for with
/// an SSLRequest, tried and given up in libpq's order), then the startup message and
/// authentication (trust, password, md5, SCRAM-SHA-256 and, over TLS, SCRAM-SHA-256-PLUS).
/// The URL's `connect_timeout` is one deadline over all of it.
struct PostgresSignIn {
  let url: PostgresURL
  let socket: PostgresSocket
  /// The server's key for cancelling, once it sent it.
  private(set) var backend: (process: Int32, secret: Int32)?
  /// The server's version, as it reports it (`15.4`).
  private(set) var serverVersion = ""
  /// Whether the last try failed in the TLS handshake (so another may go without TLS).
  private(set) var failedInTLS = false

  /// Connects to the URL's server and signs in: the signed-in socket and what the server
  /// said. Over a Unix socket there is no TLS (as libpq). `allow` tries clear text, then TLS
  /// if the server refuses a connection without it; `prefer` tries TLS, then clear text if the
  /// handshake fails or the server refuses a connection with it; the other modes try TLS only.
  static func connect(_ url: PostgresURL) throws(DatabaseError) -> PostgresSignIn {
    let wait = SocketWait.within(url.connectTimeout)
    let tries: [Bool] =
      switch url.host.hasPrefix("/") ? .disable : url.tls.mode {
      case .disable: [false]
      case .allow: [false, true]
      case .prefer: [true, false]
      case .require, .verifyCA, .verifyFull: [true]
      }
    var index = 0
    var earlier: DatabaseError?
    while true {
      var signIn = PostgresSignIn(
        url: url, socket: try PostgresSocket(host: url.host, port: url.port, wait: wait))
      do {
        try signIn.run(askingForTLS: tries[index])
        return signIn
      } catch  where index + 1 < tries.count && (signIn.failedInTLS || error.code == "28000") {
        // 28000: the server's pg_hba.conf has no entry for a connection like this one.
        earlier = error
        index += 1
      } catch {
        // Both tries failed: say both.
        guard let earlier else { throw error }
        var both = error
        both.message += " (and \(tries[0] ? "with" : "without") TLS first: \(earlier.message))"
        throw both
      }
    }
  }

  init(url: PostgresURL, socket: PostgresSocket) {
    self.url = url
    self.socket = socket
  }

  /// One try over `socket`: TLS first when `askingForTLS` (going on in clear text if the
  /// server declines and the mode allows it), then the startup and authentication.
  mutating func run(askingForTLS: Bool) throws(DatabaseError) {
    if askingForTLS { try negotiateTLS() }
    try socket.write(
      PostgresMessage.startup([
        ("user", url.user), ("database", url.database), ("client_encoding", "UTF8"),
        ("DateStyle", "ISO"), ("TimeZone", "UTC"), ("IntervalStyle", "iso_8601"),
        ("extra_float_digits", "3"), ("application_name", "flt"),
      ]))
    try authenticate()
    socket.wait = url.readTimeout.map { .eachRead(seconds: $0) } ?? .forever
  }

  /// The SSLRequest and the server's one-byte answer; the handshake when it says yes.
  private mutating func negotiateTLS() throws(DatabaseError) {
    // Without OpenSSL, `prefer` and `allow` go on in clear text, as a libpq built without
    // TLS does; the modes that need TLS say what to install.
    if case .failure(let missing) = OpenSSLLibrary.shared {
      if url.tls.mode.needsTLS { throw missing }
      return
    }
    // The client's side first: its mistakes (a root or key file that cannot be read) are
    // errors whatever the mode, not a reason to go on without TLS.
    let session = try TLSSession(url.tls, host: url.host)
    try socket.write(PostgresMessage.int32(8) + PostgresMessage.int32(80_877_103))
    let answer = try socket.read(1).first
    switch answer {
    case UInt8(ascii: "S"):
      do {
        try socket.startTLS(session)
      } catch {
        failedInTLS = true
        throw error
      }
    case UInt8(ascii: "N"):
      guard !url.tls.mode.needsTLS else {
        throw DatabaseError(
          "the server does not accept TLS, and sslmode=\(url.tls.mode.rawValue) needs it",
          help:
            "turn on ssl in the server's postgresql.conf, or connect with sslmode=prefer to go on in clear text"
        )
      }
    case UInt8(ascii: "E"):
      // A server too old to know the request; libpq tries again without it.
      failedInTLS = true
      throw DatabaseError("the server answered the request for TLS with an error")
    default:
      throw DatabaseError(
        "PostgreSQL answered the request for TLS with something else",
        help: "is this a PostgreSQL server, or one that speaks its protocol?")
    }
  }

  private mutating func authenticate() throws(DatabaseError) {
    var scram: SCRAMClient?
    let binding = url.tls.channelBinding
    while true {
      let (type, body) = try socket.readMessage()
      var reader = PostgresMessage.Reader(body)
      switch type {
      case UInt8(ascii: "R"):
        let code = try reader.int32()
        switch code {
        case 0:
          guard binding != .require || scram?.binding.mechanism == "SCRAM-SHA-256-PLUS" else {
            throw Self.unbound("signed flt in without it")
          }
        case 3, 5:
          // Not even a hash of the password goes to a server that was to prove who it is.
          guard binding != .require else { throw Self.unbound("asks for a password instead") }
          if code == 3 {
            try send("p", PostgresMessage.cString(try password()))
          } else {
            let salt = Array(try reader.take(4))
            let inner = ByteText.hex(MD5.hash(Array((try password() + url.user).utf8)))
            try send(
              "p",
              PostgresMessage.cString("md5" + ByteText.hex(MD5.hash(Array(inner.utf8) + salt))))
          }
        case 10:
          var mechanisms: [String] = []
          while !reader.atEnd, case let name = try reader.cString(), !name.isEmpty {
            mechanisms.append(name)
          }
          var client = SCRAMClient(
            password: try password(), binding: try channelBinding(offered: mechanisms))
          guard mechanisms.contains(client.binding.mechanism) else {
            throw DatabaseError(
              "the server asks for \(mechanisms.joined(separator: ", ")), which flt does not support"
            )
          }
          let first = Array(client.first().utf8)
          scram = client
          try send(
            "p",
            PostgresMessage.cString(client.binding.mechanism)
              + PostgresMessage.int32(Int32(first.count)) + first)
        case 11:
          let wait = socket.wait
          guard var client = scram,
            let final = client.final(
              String(decoding: reader.rest(), as: UTF8.self), keepGoing: { !wait.hasExpired })
          else {
            // (A server may ask for millions of iterations: the deadline bounds them.)
            if wait.hasExpired { throw wait.expired }
            throw DatabaseError("the server's SCRAM challenge is malformed")
          }
          scram = client
          try send("p", Array(final.utf8))
        case 12:
          guard let client = scram, client.verifies(String(decoding: reader.rest(), as: UTF8.self))
          else {
            throw DatabaseError(
              "the server could not prove it knows the password (SCRAM)",
              help: "check that the URL names the server you meant")
          }
        default:
          throw DatabaseError(
            "the server asks for an authentication method flt does not support (code \(code))",
            help: "use trust, password, md5 or scram-sha-256 in pg_hba.conf")
        }
      case UInt8(ascii: "K"):
        backend = (try reader.int32(), try reader.int32())
      case UInt8(ascii: "S"):
        let name = try reader.cString()
        let value = try reader.cString()
        if name == "server_version" { serverVersion = value }
      case UInt8(ascii: "Z"):
        return
      case UInt8(ascii: "E"):
        throw try PostgresConnection.error(body)
      case UInt8(ascii: "N"):
        continue
      default:
        throw DatabaseError("PostgreSQL sent an unexpected message during startup")
      }
    }
  }

  /// How SCRAM binds itself to the connection, given the mechanisms the server offers.
  private func channelBinding(offered mechanisms: [String]) throws(DatabaseError)
    -> SCRAMClient.Binding
  {
    let setting = url.tls.channelBinding
    guard setting != .disable, let tls = socket.tls else {
      if setting == .require { throw Self.unbound("is not reached over TLS") }
      return .none
    }
    guard mechanisms.contains("SCRAM-SHA-256-PLUS") else {
      if setting == .require { throw Self.unbound("does not offer it") }
      return .notOffered
    }
    guard let hash = tls.serverCertificateHash else {
      if setting == .require {
        throw Self.unbound("has a certificate whose signature names no hash")
      }
      return .none
    }
    return .serverEndPoint(hash)
  }

  /// channel_binding=require, and the server `reason`.
  private static func unbound(_ reason: String) -> DatabaseError {
    DatabaseError(
      "channel_binding=require, but the server \(reason)",
      help:
        "channel binding needs TLS and SCRAM-SHA-256 authentication; connect with channel_binding=prefer if this server is the one you meant"
    )
  }

  private func password() throws(DatabaseError) -> String {
    guard let password = url.password else {
      throw DatabaseError(
        "the server asks for a password for \(url.user)",
        help: "give it in the URL (postgresql://user:password@host/db) or in PGPASSWORD")
    }
    return password
  }

  private func send(_ type: Character, _ body: [UInt8]) throws(DatabaseError) {
    try socket.write(PostgresMessage.frame(type.asciiValue, body))
  }
}
