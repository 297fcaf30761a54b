import Testing

@testable import FilterDatabase

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

  @Test func otherEscapesStillDecode() throws {
    let url = try Self.parse("postgresql://m%65:p%25%40s@h/s%2Fhop").get()
    #expect(url.user == "me" && url.password == "p%@s" && url.database == "s/hop")
  }
}
