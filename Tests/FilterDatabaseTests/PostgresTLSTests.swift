import FilterSQL
import Foundation
import TestSupport
import Testing

@testable import FilterDatabase

/// TLS to a real server (`.ci/postgres` turns it on for the main server, with a throwaway CA
/// that made its certificate out to `localhost` and signed it with SHA-384; its shards have
/// no TLS): every `sslmode`, verification of who signed and whom for, a server that refuses
/// TLS, client certificates, the fallbacks of `allow` and `prefer`, and SCRAM bound to the
/// connection (`channel_binding`).
@Suite(.enabled(if: PostgresServer.tlsAvailable, "no PostgreSQL server with TLS"))
struct PostgresTLSTests {
  let folder = PostgresServer.tls ?? ""
  let port = PostgresServer.port ?? "5432"

  /// A URL for `user` on `host` with `parameters`.
  func url(
    _ parameters: String, host: String = "localhost", port: String? = nil,
    user: String = "flt_scram:scram%20pass"
  ) -> String {
    "postgresql://\(user)@\(host):\(port ?? self.port)/flt?\(parameters)"
  }

  func connect(_ url: String) throws -> PostgresConnection {
    // No ~/.postgresql of whoever runs the tests: only what the URL says.
    try PostgresConnection(PostgresURL(url, environment: { _ in nil }))
  }

  /// What the server says of the connection: whether it is TLS, and who signed in.
  func serverSide(_ connection: PostgresConnection) throws -> [SQLValue] {
    let rows = try connection.rows(
      SQLStatement("SELECT ssl::text, current_user FROM pg_stat_ssl WHERE pid = pg_backend_pid()"))
    return rows.first ?? []
  }

  @Test func eachModeEncryptsOrNotAsLibpqDoes() throws {
    let ca = "sslrootcert=\(folder)/ca.crt"
    for (parameters, encrypted) in [
      ("sslmode=disable", false), ("sslmode=allow", false), ("sslmode=prefer", true),
      ("", true), ("sslmode=require", true), ("sslmode=verify-ca&\(ca)", true),
      ("sslmode=verify-full&\(ca)", true),
    ] {
      let connection = try connect(url(parameters))
      #expect(
        try serverSide(connection) == [.text(encrypted ? "true" : "false"), .text("flt_scram")])
      #expect((connection.encryption != nil) == encrypted, "\(parameters)")
      if encrypted { #expect(connection.encryption?.hasPrefix("TLSv1.") == true) }
    }
  }

  @Test func verifyFullChecksTheNameTheCertificateIsMadeOutTo() throws {
    let ca = "sslrootcert=\(folder)/ca.crt"
    let wrongName = #expect(throws: DatabaseError.self) {
      _ = try connect(url("sslmode=verify-full&\(ca)", host: "127.0.0.1"))
    }
    #expect(
      wrongName?.message
        == "the server's certificate is not made out to 127.0.0.1 (sslmode=verify-full)")
    #expect(wrongName?.help?.contains("verify-ca") == true)
    // verify-ca checks who signed it, not for whom.
    #expect(try connect(url("sslmode=verify-ca&\(ca)", host: "127.0.0.1")).encryption != nil)
  }

  @Test func aCertificateNoTrustedRootSignedIsRefused() throws {
    let other = "sslrootcert=\(folder)/other-ca.crt"
    for mode in ["verify-full", "verify-ca", "require"] {
      // require verifies too when a root file is there (libpq's rule).
      let error = #expect(throws: DatabaseError.self) {
        _ = try connect(url("sslmode=\(mode)&\(other)"))
      }
      #expect(error?.message.hasPrefix("the server's certificate cannot be trusted: ") == true)
      #expect(error?.help?.contains("other-ca.crt") == true)
    }
    // prefer goes on in clear text after a failed handshake, as libpq does.
    #expect(try connect(url("sslmode=prefer&\(other)")).encryption == nil)
    let missing = #expect(throws: DatabaseError.self) {
      _ = try connect(url("sslmode=verify-ca&sslrootcert=\(folder)/nothing.crt"))
    }
    #expect(missing?.message.contains("nothing.crt cannot be read") == true)
    let notPEM = #expect(throws: DatabaseError.self) {
      _ = try connect(url("sslmode=verify-ca&sslrootcert=\(folder)/client.ext"))
    }
    #expect(notPEM?.message.hasPrefix("cannot read the root certificates in ") == true)
  }

  @Test func aServerWithoutTLSIsRefusedWhenTLSIsNeeded() throws {
    let shard = PostgresServer.shardPorts.first ?? port
    for mode in ["require", "verify-ca", "verify-full"] {
      let error = #expect(throws: DatabaseError.self) {
        _ = try connect(url("sslmode=\(mode)&sslrootcert=\(folder)/ca.crt", port: shard))
      }
      #expect(error?.message == "the server does not accept TLS, and sslmode=\(mode) needs it")
    }
    #expect(try connect(url("sslmode=prefer", port: shard)).encryption == nil)
  }

  @Test func allowAndPreferTryTheOtherWayWhenTheServerRefuses() throws {
    // flt_tls_only is refused without TLS: allow tries clear text, then TLS.
    let tlsOnly = try connect(url("sslmode=allow", user: "flt_tls_only:tls%20pass"))
    #expect(try serverSide(tlsOnly) == [.text("true"), .text("flt_tls_only")])
    let refused = #expect(throws: DatabaseError.self) {
      _ = try connect(url("sslmode=disable", user: "flt_tls_only:tls%20pass"))
    }
    #expect(refused?.code == "28000")
    // flt_nossl is refused with TLS: prefer tries TLS, then clear text.
    let clear = try connect(url("sslmode=prefer", user: "flt_nossl:tls%20pass"))
    #expect(try serverSide(clear) == [.text("false"), .text("flt_nossl")])
    let both = #expect(throws: DatabaseError.self) {
      _ = try connect(url("sslmode=require", user: "flt_nossl:tls%20pass"))
    }
    #expect(both?.message.contains("SSL encryption") == true)
  }

  @Test func clientCertificatesSignIn() throws {
    let certificate = "sslcert=\(folder)/client.crt&sslkey=\(folder)/client.key"
    let signedIn = try connect(url(certificate, user: "flt_cert"))
    #expect(try serverSide(signedIn) == [.text("true"), .text("flt_cert")])
    // Without one, the server asks for what the user does not have.
    #expect(throws: DatabaseError.self) { _ = try connect(url("", user: "flt_cert")) }
    // A key others may read is refused before anything is sent.
    let open = try TemporaryFiles.write(
      Array(try Data(contentsOf: URL(fileURLWithPath: "\(folder)/client.key"))), "open.key"
    ).path
    #expect(chmod(open, 0o644) == 0)
    let error = #expect(throws: DatabaseError.self) {
      _ = try connect(url("sslcert=\(folder)/client.crt&sslkey=\(open)", user: "flt_cert"))
    }
    #expect(error?.message == "the private key \(open) can be read by others")
    #expect(error?.help == "make it private: chmod 600 \(open)")
  }

  /// SCRAM-SHA-256-PLUS: the proof covers the hash of the server's certificate (SHA-384 here,
  /// the hash of its signature, not SHA-256): the server accepts it only if both ends hashed
  /// the same certificate.
  @Test func channelBinding() throws {
    let bound = try connect(url("channel_binding=require"))
    #expect(try serverSide(bound) == [.text("true"), .text("flt_scram")])
    for (parameters, user, reason) in [
      (
        "channel_binding=require&sslmode=disable", "flt_scram:scram%20pass",
        "is not reached over TLS"
      ),
      ("channel_binding=require", "flt_md5:md5%20pass", "asks for a password instead"),
      ("channel_binding=require", "flt_trust", "signed flt in without it"),
    ] {
      let error = #expect(throws: DatabaseError.self) {
        _ = try connect(url(parameters, user: user))
      }
      #expect(error?.message == "channel_binding=require, but the server \(reason)", "\(user)")
    }
    #expect(try connect(url("channel_binding=disable")).encryption != nil)
  }

  /// Results bigger than a TLS record (16 KiB) both ways: a long parameter and many rows.
  @Test func longValuesAndManyRowsCrossTLS() throws {
    let connection = try connect(url("sslmode=require"))
    let long = String(repeating: "abcdefgh", count: 40_000)
    #expect(
      try connection.rows(SQLStatement("SELECT length($1), md5($1)", parameters: [.text(long)]))
        == [[.text("320000"), .text(ByteText.hex(MD5.hash(Array(long.utf8))))]])
    var count = 0
    var sum = 0
    try connection.forEachRow(SQLStatement("SELECT g FROM generate_series(1, 200000) g")) { row in
      count += 1
      if case .text(let text) = row.first { sum += Int(text) ?? 0 }
      return true
    }
    #expect(count == 200_000)
    #expect(sum == 200_000 * 200_001 / 2)
  }
}
