import FilterSQL

/// A connection to a PostgreSQL server (or one that speaks its protocol), written from the
/// protocol's documentation: TCP or Unix sockets; trust, cleartext, md5 and SCRAM-SHA-256
/// authentication; TLS through the system's OpenSSL, with libpq's `sslmode`s and SCRAM's
/// channel binding; the extended query protocol with every value a bound parameter, in text;
/// results in text; the server's errors with their position; cancelling a running statement.
///
/// One connection is for one thread at a time; ``interrupt()`` may be called from any.
public final class PostgresConnection: SQLConnection, @unchecked Sendable {
  /// PostgreSQL's dialect.
  public var dialect: SQLDialect { .postgresql }
  /// Where the connection goes (without the password).
  public let url: PostgresURL
  private let socket: PostgresSocket
  private let backend: (process: Int32, secret: Int32)?
  /// The server's version, as it reports it (`15.4`).
  public let serverVersion: String

  /// Connects and authenticates, with TLS as the URL's `sslmode` says.
  public convenience init(_ url: PostgresURL) throws(DatabaseError) {
    self.init(signedIn: try PostgresSignIn.connect(url))
  }

  /// Signs in over `socket`, connected to the server `url` names (tests and the fuzzer play
  /// the server on the other end): one try, TLS asked for unless the mode is `disable` or
  /// `allow`.
  convenience init(_ url: PostgresURL, over socket: PostgresSocket) throws(DatabaseError) {
    socket.wait = .within(url.connectTimeout)
    var signIn = PostgresSignIn(url: url, socket: socket)
    try signIn.run(askingForTLS: url.tls.mode != .disable && url.tls.mode != .allow)
    self.init(signedIn: signIn)
  }

  private init(signedIn: PostgresSignIn) {
    url = signedIn.url
    socket = signedIn.socket
    backend = signedIn.backend
    serverVersion = signedIn.serverVersion
  }

  /// Connects to `url` (`postgresql://user@host:port/database`).
  public convenience init(url: String) throws(DatabaseError) {
    try self.init(PostgresURL(url))
  }

  /// The room its socket's buffer holds, in bytes (see ``PostgresSocket/room``).
  var socketRoom: Int { socket.room }

  /// Whether the connection is encrypted, and by which protocol (`TLSv1.3`); nil in clear
  /// text.
  public var encryption: String? { socket.tls?.protocolVersion }

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
        try Self.decodeRow(consume message, columns: columns, into: &row)
        // The row's values are copies: a long message's room is given back before the row is
        // used (a 300 MB value is then held once, as the row's text).
        socket.giveBackRoom()
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

  /// The values of DataRow `message`, into `row`; `columns` is the RowDescription's count.
  private static func decodeRow(
    _ message: consuming ArraySlice<UInt8>, columns: Int?, into row: inout [SQLValue]
  ) throws(DatabaseError) {
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
      let cancel = try? PostgresSocket(
        host: url.host, port: url.port, wait: .within(url.connectTimeout))
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

  private func receive() throws(DatabaseError) -> (UInt8, ArraySlice<UInt8>) {
    try socket.readMessage()
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
