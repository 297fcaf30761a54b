// libFuzzer harness for the PostgreSQL client and its cryptography: a hostile or broken
// server must never crash or hang the client; every failure is a DatabaseError. The input's
// first byte picks what the rest is:
//   0: the server's whole answer to the startup (authentication: trust, cleartext, md5, SCRAM),
//   1: its answer to a query, after a valid startup,
//   2: its answer to a table's introspection, after a valid startup,
//   3: bytes for SHA-256, HMAC, PBKDF2, MD5 and Base64 (checked against their own identities),
//   4: a URL (read as `PostgresURL` with no environment; its text printed back),
//   5: the server's whole answer to a client that asks for TLS first (sslmode=prefer): the
//      answer to the request, then (after `N`) the startup.
// Build and run with `Fuzz/run postgres`.

/// A valid startup: authentication done, the server's version, its key, ready.
let fuzzStartup: [UInt8] =
  ScriptedServer.message("R", PostgresMessage.int32(0))
  + ScriptedServer.message(
    "S", PostgresMessage.cString("server_version") + PostgresMessage.cString("15.4"))
  + ScriptedServer.message("K", PostgresMessage.int32(42) + PostgresMessage.int32(7))
  + ScriptedServer.message("Z", [UInt8(ascii: "I")])

public func fuzzPostgres(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 0 else { return 0 }
  let mode = data[0] % 6
  let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
  let server = ScriptedServer()
  defer { server.stop() }
  do throws(DatabaseError) {
    switch mode {
    case 0:
      _ = try server.connect(bytes)
    case 1:
      let connection = try server.connect(fuzzStartup + bytes)
      _ = try connection.rows(SQLStatement("select $1", parameters: [.text("x")]))
    case 2:
      let connection = try server.connect(fuzzStartup + bytes)
      _ = try connection.table(named: "t", typingJSON: nil)
    case 3:
      fuzzCrypto(bytes)
    case 5:
      _ = try server.connect(bytes, url: "postgresql://u:p@localhost/db?sslmode=prefer")
    default:
      let url = try PostgresURL(
        "postgresql://" + String(decoding: bytes, as: UTF8.self), environment: { _ in nil })
      _ = url.description
    }
  } catch {
    _ = error.message
  }
  return 0
}

/// The cryptography on any bytes: no crash, and each function agrees with itself.
func fuzzCrypto(_ bytes: [UInt8]) {
  let half = bytes.count / 2
  let (key, message) = (Array(bytes[..<half]), Array(bytes[half...]))
  if SHA256.hash(bytes) != SHA256.hash(bytes[...]) { fatalError("SHA-256 differs for a slice") }
  if SHA256.hash(bytes).count != 32 || MD5.hash(bytes).count != 16 { fatalError("digest size") }
  let mac = HMACSHA256.authenticate(message, key: key)
  // HMAC's key: one longer than a block is hashed first.
  if key.count > 64, mac != HMACSHA256.authenticate(message, key: SHA256.hash(key)) {
    fatalError("HMAC of a long key")
  }
  let iterations = 1 + Int(bytes.first ?? 0) % 4
  let derived = HMACSHA256.pbkdf2(password: key, salt: message, iterations: iterations) ?? []
  if iterations == 1, derived != HMACSHA256.authenticate(message + [0, 0, 0, 1], key: key) {
    fatalError("PBKDF2 with one iteration is one HMAC")
  }
  let text = ByteText.base64(bytes)
  if ByteText.base64(decoding: text) != bytes { fatalError("Base64 round trip") }
  _ = ByteText.base64(decoding: String(decoding: bytes, as: UTF8.self))
}
