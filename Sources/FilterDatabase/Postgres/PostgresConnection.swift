import FilterSQL

/// A connection to a PostgreSQL server (or one that speaks its protocol), written from the
/// protocol's documentation: TCP or Unix sockets; trust, cleartext, md5 and SCRAM-SHA-256
/// authentication; the extended query protocol with every value a bound parameter, in text;
/// results in text; the server's errors with their position; cancelling a running statement.
/// No TLS yet.
///
/// One connection is for one thread at a time; ``interrupt()`` may be called from any.
public final class PostgresConnection: SQLConnection, @unchecked Sendable {
  /// PostgreSQL's dialect.
  public var dialect: SQLDialect { .postgresql }
  /// Where the connection goes (without the password).
  public let url: PostgresURL
  private let socket: PostgresSocket
  private var backend: (process: Int32, secret: Int32)?
  /// The server's version, as it reports it (`15.4`).
  public private(set) var serverVersion = ""

  /// Connects and authenticates.
  public convenience init(_ url: PostgresURL) throws(DatabaseError) {
    try self.init(
      url, over: PostgresSocket(host: url.host, port: url.port, timeout: url.connectTimeout))
  }

  /// Authenticates over `socket`, connected to the server `url` names.
  init(_ url: PostgresURL, over socket: PostgresSocket) throws(DatabaseError) {
    self.url = url
    self.socket = socket
    try socket.write(
      PostgresMessage.startup([
        ("user", url.user), ("database", url.database), ("client_encoding", "UTF8"),
        ("DateStyle", "ISO"), ("TimeZone", "UTC"), ("IntervalStyle", "iso_8601"),
        ("extra_float_digits", "3"), ("application_name", "flt"),
      ]))
    socket.timeout = url.connectTimeout
    try authenticate()
    socket.timeout = url.readTimeout
  }

  /// Connects to `url` (`postgresql://user@host:port/database`).
  public convenience init(url: String) throws(DatabaseError) {
    try self.init(PostgresURL(url))
  }

  private func authenticate() throws(DatabaseError) {
    var scram: SCRAMClient?
    while true {
      let (type, body) = try receive()
      var reader = PostgresMessage.Reader(body)
      switch type {
      case UInt8(ascii: "R"):
        let code = try reader.int32()
        switch code {
        case 0: break
        case 3:
          try send("p", PostgresMessage.cString(try password()))
        case 5:
          let salt = Array(try reader.take(4))
          let inner = ByteText.hex(MD5.hash(Array((try password() + url.user).utf8)))
          try send(
            "p", PostgresMessage.cString("md5" + ByteText.hex(MD5.hash(Array(inner.utf8) + salt))))
        case 10:
          var mechanisms: [String] = []
          while !reader.atEnd, case let name = try reader.cString(), !name.isEmpty {
            mechanisms.append(name)
          }
          guard mechanisms.contains("SCRAM-SHA-256") else {
            throw DatabaseError(
              "the server asks for \(mechanisms.joined(separator: ", ")), which flt does not support"
            )
          }
          var client = SCRAMClient(password: try password())
          let first = Array(client.first().utf8)
          scram = client
          try send(
            "p",
            PostgresMessage.cString("SCRAM-SHA-256") + PostgresMessage.int32(Int32(first.count))
              + first)
        case 11:
          guard var client = scram,
            let final = client.final(String(decoding: reader.rest(), as: UTF8.self))
          else { throw DatabaseError("the server's SCRAM challenge is malformed") }
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
        throw try Self.error(body)
      case UInt8(ascii: "N"):
        continue
      default:
        throw DatabaseError("PostgreSQL sent an unexpected message during startup")
      }
    }
  }

  private func password() throws(DatabaseError) -> String {
    guard let password = url.password else {
      throw DatabaseError(
        "the server asks for a password for \(url.user)",
        help: "give it in the URL (postgresql://user:password@host/db) or in PGPASSWORD")
    }
    return password
  }

  /// Runs `statement`, handing each row to `body` until it returns false or the rows end.
  /// Rows are fetched a batch at a time (the protocol's portal suspension), so a result of any
  /// size streams in constant memory, and stopping early closes the portal: nothing more is
  /// sent or computed. A small result (`SQLStatement/isSmall`) is asked for whole, which
  /// lets the server run the statement in parallel (it does not for a portal fetched in
  /// batches).
  public func forEachRow(_ statement: SQLStatement, _ body: ([SQLValue]) -> Bool)
    throws(DatabaseError)
  {
    let parameters = statement.parameters.map { value -> [UInt8]? in
      switch value {
      case .null: nil
      case .int(let i): Array(String(i).utf8)
      case .double(let d):
        Array((d.isFinite ? String(d) : d < 0 ? "-Infinity" : "Infinity").utf8)
      case .text(let text): Array(text.utf8)
      }
    }
    let batch: Int32 = statement.isSmall ? 0 : 4096
    try socket.write(PostgresMessage.extendedQuery(statement.text, parameters, rows: batch))
    var failure: DatabaseError?
    var wanted = true
    var synced = false
    var row: [SQLValue] = []
    // The number of columns, from the RowDescription: every row must have that many values.
    var columns: Int?
    while true {
      let (type, message) = try receive()
      switch type {
      case UInt8(ascii: "T"):
        var reader = PostgresMessage.Reader(message)
        columns = Int(try reader.int16())
      case UInt8(ascii: "D"):
        guard wanted else { continue }
        var reader = PostgresMessage.Reader(message)
        let count = Int(try reader.int16())
        // A negative count (the field is signed on the wire) would make `0..<count` trap.
        guard let columns, count == columns, count >= 0 else { throw Self.malformedRow }
        row.removeAll(keepingCapacity: true)
        for _ in 0..<count {
          let length = Int(try reader.int32())
          guard length >= -1 else { throw Self.malformedRow }
          row.append(
            length < 0 ? .null : .text(String(decoding: try reader.take(length), as: UTF8.self)))
        }
        guard reader.atEnd else { throw Self.malformedRow }
        wanted = body(row)
      case UInt8(ascii: "s"):  // PortalSuspended: more rows wait.
        try socket.write(
          wanted ? PostgresMessage.execute(rows: batch) : PostgresMessage.closeAndSync)
        synced = !wanted
      case UInt8(ascii: "C"), UInt8(ascii: "I"):  // CommandComplete, EmptyQueryResponse
        if !synced { try socket.write(PostgresMessage.sync) }
        synced = true
      case UInt8(ascii: "E"):
        if failure == nil { failure = try Self.error(message, statement: statement.text) }
        // After an error the server skips everything up to a Sync.
        if !synced { try socket.write(PostgresMessage.sync) }
        synced = true
      case UInt8(ascii: "Z"):
        if let failure { throw failure }
        return
      default:
        continue  // ParseComplete, BindComplete, CloseComplete, notices...
      }
    }
  }

  /// A DataRow that does not match its RowDescription (or came without one).
  private static let malformedRow = DatabaseError(
    "PostgreSQL sent a malformed row",
    help: "is this a PostgreSQL server, or one that speaks its protocol?")

  /// Runs every statement of `script` (no parameters), as `psql` would: for loading data.
  public func executeScript(_ script: String) throws(DatabaseError) {
    try send("Q", PostgresMessage.cString(script))
    var failure: DatabaseError?
    while true {
      let (type, message) = try receive()
      if type == UInt8(ascii: "E"), failure == nil { failure = try Self.error(message) }
      if type == UInt8(ascii: "Z") {
        if let failure { throw failure }
        return
      }
    }
  }

  /// Asks the server to cancel the statement running now (a new connection carrying this
  /// one's key, as the protocol says); the statement then fails, or ends if it was done.
  public func interrupt() {
    guard let backend,
      let cancel = try? PostgresSocket(host: url.host, port: url.port, timeout: url.connectTimeout)
    else { return }
    try? cancel.write(
      PostgresMessage.frame(
        nil,
        PostgresMessage.int32(80_877_102) + PostgresMessage.int32(backend.process)
          + PostgresMessage.int32(backend.secret)))
  }

  private func send(_ type: Character, _ body: [UInt8]) throws(DatabaseError) {
    try socket.write(PostgresMessage.frame(type.asciiValue, body))
  }

  /// The next message: its type and body.
  private func receive() throws(DatabaseError) -> (UInt8, ArraySlice<UInt8>) {
    let header = try socket.read(5)
    let type = header[header.startIndex]
    let length = header.dropFirst().reduce(Int32(0)) { $0 << 8 | Int32($1) }
    // A message longer than 1 GiB is not one PostgreSQL sends.
    guard length >= 4, length <= 1 << 30 else {
      throw DatabaseError("PostgreSQL sent a malformed message (length \(length))")
    }
    return (type, try socket.read(Int(length) - 4))
  }

  /// An ErrorResponse as a ``DatabaseError``: the message, where in the statement, detail and
  /// hint.
  static func error(_ body: ArraySlice<UInt8>, statement: String? = nil) throws(DatabaseError)
    -> DatabaseError
  {
    var reader = PostgresMessage.Reader(body)
    var fields: [UInt8: String] = [:]
    while !reader.atEnd {
      let code = Array(try reader.take(1))[0]
      if code == 0 { break }
      fields[code] = try reader.cString()
    }
    var message = "PostgreSQL: " + (fields[UInt8(ascii: "M")] ?? "an error")
    if let detail = fields[UInt8(ascii: "D")] { message += " (\(detail))" }
    if let position = fields[UInt8(ascii: "P")].flatMap(Int.init), let statement {
      message += "\n  at character \(position) of: \(statement)"
    }
    var error = DatabaseError(message, help: fields[UInt8(ascii: "H")])
    error.code = fields[UInt8(ascii: "C")]
    return error
  }
}
