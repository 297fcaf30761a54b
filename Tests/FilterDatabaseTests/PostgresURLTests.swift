import TestSupport
import Testing

@testable import FilterDatabase

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// URLs a user or an attacker writes: each broken one is a DatabaseError, never a trap, and no
/// component can smuggle a zero byte into the startup message.
@Suite struct PostgresURLTests {
  static func parse(_ text: String) -> Result<PostgresURL, DatabaseError> {
    Result { () throws(DatabaseError) in try PostgresURL(text, environment: { _ in nil }) }
  }

  /// `?=`, `?=x` and `?&=` once trapped (an empty name split to no parts at all).
  @Test(arguments: [
    "postgresql://h/x?=", "postgresql://h/x?=x", "postgresql://h/x?a=1&=",
    "postgres://h?=&", "postgresql://?=",
  ])
  func aParameterWithoutANameIsAnError(_ text: String) {
    let error = #expect(throws: DatabaseError.self) { try Self.parse(text).get() }
    #expect(error?.message.contains("has no parameter name") == true, "\(text)")
  }

  @Test func emptyPairsAndValuesAreRead() throws {
    let url = try Self.parse("postgresql://h/x?&&sslmode=disable&&user=&").get()
    #expect(url.host == "h" && url.database == "x")
    // `user=` names an empty user, as libpq reads it.
    #expect(url.user == "")
  }

  /// `%00` would end a startup parameter early and let the rest name another
  /// (`?options=...%00statement_timeout...`): refused in every component, as libpq does.
  @Test(arguments: [
    "postgresql://me%00x@h/db", "postgresql://me:p%00w@h/db", "postgresql://h%00/db",
    "postgresql://h/db%00statement_timeout", "postgresql://h/db?user=a%00b",
    "postgresql://h/db?application_name=%00",
  ])
  func aZeroByteIsRefusedEverywhere(_ text: String) {
    let error = #expect(throws: DatabaseError.self) { try Self.parse(text).get() }
    #expect(error?.message.contains("%00") == true, "\(text)")
  }

  /// An IPv6 address in brackets: its colons are not the port's.
  @Test func ipv6Hosts() throws {
    let url = try Self.parse("postgresql://me@[::1]:5433/db").get()
    #expect(url.host == "::1" && url.port == 5433)
    #expect(url.description == "postgresql://me@[::1]:5433/db")
    let bare = try Self.parse("postgresql://me@[fe80::1]/db").get()
    #expect(bare.host == "fe80::1" && bare.port == 5432)
    #expect(throws: DatabaseError.self) { try Self.parse("postgresql://[::1]x/db").get() }
  }

  @Test func otherEscapesStillDecode() throws {
    let url = try Self.parse("postgresql://m%65:p%25%40s@h/s%2Fhop").get()
    #expect(url.user == "me" && url.password == "p%@s" && url.database == "s/hop")
  }

  /// A password never appears in a message or a listing.
  @Test func passwordsAreNotShown() throws {
    #expect(
      PostgresURL.redacted("postgresql://me:s3cret@h:5432/db?sslmode=disable&password=x&a=1")
        == "postgresql://me:****@h:5432/db?sslmode=disable&password=****&a=1")
    #expect(PostgresURL.redacted("postgresql://me@h/db") == "postgresql://me@h/db")
    #expect(PostgresURL.redacted("postgresql://me:p@ss@h/db") == "postgresql://me:****@h/db")
    for bad in [
      "postgresql://me:s3cret@h:99999/db", "postgresql://me:s3cret@h/db?application_name=%zz",
      "postgresql://me:s3cret@h/db?connect_timeout=x", "postgresql://me:s3cret@h/db?=1",
    ] {
      let error = #expect(throws: DatabaseError.self) { try Self.parse(bad).get() }
      #expect(error?.message.contains("s3cret") == false, "\(bad)")
      #expect(error?.message.contains("me:****@h") == true, "\(bad)")
    }
  }

  /// The TLS settings are read as libpq reads them: from the URL, else its PG variables, else
  /// libpq's defaults (prefer; the roots, certificate and key in ~/.postgresql).
  @Test func tlsSettingsAsLibpqReadsThem() throws {
    let defaults = try PostgresURL("postgresql://h/db", environment: ["HOME": "/home/me"].get).tls
    #expect(defaults.mode == .prefer)
    #expect(defaults.rootCertificates == "/home/me/.postgresql/root.crt")
    #expect(defaults.certificate == "/home/me/.postgresql/postgresql.crt")
    #expect(defaults.key == "/home/me/.postgresql/postgresql.key")
    #expect(defaults.channelBinding == .prefer)
    #expect(defaults.sendsHostName)
    let environment = [
      "PGSSLMODE": "require", "PGSSLROOTCERT": "/ca.pem", "PGSSLCERT": "/c.pem",
      "PGSSLKEY": "/k.pem", "PGCHANNELBINDING": "require", "PGSSLSNI": "0",
    ]
    let fromEnvironment = try PostgresURL("postgresql://h/db", environment: environment.get).tls
    #expect(fromEnvironment.mode == .require)
    #expect(fromEnvironment.rootCertificates == "/ca.pem")
    #expect(fromEnvironment.certificate == "/c.pem")
    #expect(fromEnvironment.key == "/k.pem")
    #expect(fromEnvironment.channelBinding == .require)
    #expect(!fromEnvironment.sendsHostName)
    // The URL wins over the environment.
    let url = try PostgresURL(
      "postgresql://h/db?sslmode=verify-ca&sslrootcert=/other.pem&channel_binding=disable",
      environment: environment.get
    ).tls
    #expect(url.mode == .verifyCA)
    #expect(url.rootCertificates == "/other.pem")
    #expect(url.channelBinding == .disable)
    // sslrootcert=system: verify-full unless said, and only verify-full.
    #expect(
      try PostgresURL("postgresql://h/db?sslrootcert=system", environment: { _ in nil }).tls.mode
        == .verifyFull)
    for mode in ["require", "verify-ca", "prefer", "disable"] {
      let weak = #expect(throws: DatabaseError.self) {
        _ = try PostgresURL(
          "postgresql://h/db?sslrootcert=system&sslmode=\(mode)", environment: { _ in nil })
      }
      #expect(
        weak?.message.hasSuffix("sslmode=\(mode) cannot be used with sslrootcert=system") == true)
    }
  }

  /// A value that is not one of a setting's is named, with the ones there are (from the
  /// environment, the variable too).
  @Test func unknownTLSValuesAreNamed() {
    let bogus = #expect(throws: DatabaseError.self) {
      _ = try PostgresURL("postgresql://h/db?sslmode=bogus", environment: { _ in nil })
    }
    #expect(bogus?.message == "sslmode=bogus is not one of its values")
    #expect(bogus?.help?.contains("verify-full") == true)
    let variable = #expect(throws: DatabaseError.self) {
      _ = try PostgresURL("postgresql://h/db", environment: ["PGCHANNELBINDING": "always"].get)
    }
    #expect(
      variable?.message == "channel_binding=always (PGCHANNELBINDING) is not one of its values")
  }

  /// The password file (`PGPASSFILE`, `~/.pgpass`) as libpq reads it: the first matching
  /// line, `*` for any field, `\:` for a colon; not used when others may read it.
  @Test func thePasswordFile() throws {
    let text = """
      # comment
      otherhost:5432:*:me:wrong
      h:5432:shop:me:sh\\:op
      *:*:*:me:any
      localhost:5433:*:*:socket
      """
    let file = try TemporaryFiles.write(Array(text.utf8), "pgpass")
    chmod(file.path, 0o600)
    let environment = ["PGPASSFILE": file.path]
    func password(_ url: String) throws -> String? {
      try PostgresURL(url, environment: { environment[$0] }).password
    }
    #expect(try password("postgresql://me@h/shop") == "sh:op")
    #expect(try password("postgresql://me@h/other") == "any")
    #expect(try password("postgresql://you@:5433/db?host=/run/postgresql") == "socket")
    #expect(try password("postgresql://you@h/db") == nil)
    // Given in the URL or PGPASSWORD, the file is not read.
    #expect(try password("postgresql://me:given@h/shop") == "given")
    chmod(file.path, 0o644)
    #expect(try password("postgresql://me@h/shop") == nil)
  }
}
