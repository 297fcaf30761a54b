import Dispatch
import FilterDSL
import FilterDatabase
import FilterSQL
import Testing

/// The PostgreSQL client against a real server: every authentication method, errors,
/// cancelling, a server that goes away, long results.
@Suite(.enabled(if: PostgresServer.available, "no PostgreSQL server"))
struct PostgresConnectionTests {
  func value(_ connection: PostgresConnection, _ sql: String, _ parameters: [SQLValue] = [])
    throws -> [[SQLValue]]
  {
    var rows: [[SQLValue]] = []
    try connection.forEachRow(SQLStatement(sql, parameters: parameters)) {
      rows.append($0)
      return true
    }
    return rows
  }

  @Test(arguments: [
    ("flt_scram", "scram pass"), ("flt_md5", "md5 pass"), ("flt_clear", "clear pass"),
    ("flt_trust", nil),
  ])
  func everyAuthenticationMethod(user: String, password: String?) throws {
    let tcp = try PostgresConnection(url: PostgresServer.url(user, password: password))
    #expect(
      try value(tcp, "SELECT current_user, $1::bigint + 1", [.int(41)]) == [
        [.text(user), .text("42")]
      ])
    #expect(tcp.serverVersion.first?.isNumber == true)
  }

  @Test func unixSocket() throws {
    let socket = try PostgresConnection(
      url: PostgresServer.socketURL("flt_scram", password: "scram pass"))
    #expect(try value(socket, "SELECT 1") == [[.text("1")]])
    let trust = try PostgresConnection(url: PostgresServer.socketURL("flt_trust", password: nil))
    #expect(try value(trust, "SELECT current_user") == [[.text("flt_trust")]])
  }

  @Test func wrongAndMissingPasswords() throws {
    for (user, password) in [("flt_scram", "nope"), ("flt_md5", "nope"), ("flt_clear", "nope")] {
      #expect {
        _ = try PostgresConnection(url: PostgresServer.url(user, password: password))
      } throws: { error in
        (error as? DatabaseError)?.message
          == "PostgreSQL: password authentication failed for user \"\(user)\""
      }
    }
    #expect {
      _ = try PostgresConnection(url: PostgresServer.url("flt_scram", password: nil))
    } throws: { error in
      (error as? DatabaseError)?.message == "the server asks for a password for flt_scram"
    }
    #expect {
      _ = try PostgresConnection(url: "postgresql://x@127.0.0.1:1/flt")
    } throws: { error in
      (error as? DatabaseError)?.message.hasPrefix("cannot connect to PostgreSQL at 127.0.0.1:1")
        == true
    }
  }

  @Test func errorsSayWhereAndTheConnectionGoesOn() throws {
    let connection = try PostgresServer.connect()
    #expect {
      _ = try value(connection, "SELECT nope FROM generate_series(1, 2) g")
    } throws: { error in
      let error = error as? DatabaseError
      return error?.message
        == "PostgreSQL: column \"nope\" does not exist\n  at character 8 of: SELECT nope FROM generate_series(1, 2) g"
        && error?.code == "42703"
    }
    #expect(
      try value(connection, "SELECT $1::text", [.text("still here")]) == [[.text("still here")]])
    // Values are parameters, whatever they hold.
    let hostile = "'); DROP TABLE x; --\\ é"
    #expect(try value(connection, "SELECT $1::text", [.text(hostile)]) == [[.text(hostile)]])
    #expect(try value(connection, "SELECT $1::text IS NULL", [.null]) == [[.text("t")]])
  }

  @Test func cancellingAStatement() throws {
    let connection = try PostgresServer.connect()
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { connection.interrupt() }
    let start = DispatchTime.now()
    #expect {
      _ = try value(connection, "SELECT pg_sleep(20)")
    } throws: { error in
      (error as? DatabaseError)?.code == "57014"
    }
    #expect(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds < 10_000_000_000)
    #expect(try value(connection, "SELECT 2") == [[.text("2")]])
  }

  @Test func stoppingEarlyEndsTheStatement() throws {
    let connection = try PostgresServer.connect()
    var seen = 0
    try connection.forEachRow(
      SQLStatement("SELECT 1 FROM pg_class a, pg_class b, pg_class c, pg_class d")
    ) { _ in
      seen += 1
      return seen < 10
    }
    #expect(seen == 10)
    #expect(try value(connection, "SELECT 3") == [[.text("3")]])
  }

  @Test func aMillionRowsStream() throws {
    let connection = try PostgresServer.connect()
    var count = 0
    var sum = 0
    try connection.forEachRow(SQLStatement("SELECT g FROM generate_series(1, 1000000) g")) { row in
      count += 1
      if case .text(let text) = row[0] { sum &+= Int(text) ?? 0 }
      return true
    }
    #expect(count == 1_000_000 && sum == 500_000_500_000)
  }

  @Test func aServerThatGoesAway() throws {
    let connection = try PostgresServer.connect()
    #expect(throws: DatabaseError.self) {
      _ = try value(connection, "SELECT pg_terminate_backend(pg_backend_pid())")
    }
    #expect(throws: DatabaseError.self) { _ = try value(connection, "SELECT 1") }
  }

  @Test func aServerThatClosesMidResult() throws {
    let connection = try PostgresServer.connect()
    guard case .text(let pid) = try value(connection, "SELECT pg_backend_pid()")[0][0] else {
      Issue.record("no backend pid")
      return
    }
    let killer = try PostgresServer.connect()
    var seen = 0
    #expect(throws: DatabaseError.self) {
      try connection.forEachRow(
        SQLStatement("SELECT 1 FROM pg_class a, pg_class b, pg_class c, pg_class d")
      ) { _ in
        seen += 1
        // Rows have come; now the server ends this connection's backend.
        if seen == 5000 {
          _ = try? value(killer, "SELECT pg_terminate_backend($1::int)", [.text(pid)])
        }
        return true
      }
    }
    #expect(seen >= 5000)
    #expect(throws: DatabaseError.self) { _ = try value(connection, "SELECT 1") }
  }

  @Test func arithmeticFaultsAreNullInTheDatabaseToo() throws {
    let connection = try PostgresServer.connect()
    try connection.executeScript("DROP TABLE IF EXISTS arithmetic")
    try SQLiteDatabaseTests.checkArithmetic(connection, name: "arithmetic")
    try connection.executeScript("DROP TABLE arithmetic")
  }

  @Test func urls() throws {
    let url = try PostgresURL(
      "postgresql://me:p%40ss@db.example:6543/shop?sslmode=disable", environment: { _ in nil })
    #expect(url.user == "me" && url.password == "p@ss" && url.host == "db.example")
    #expect(url.port == 6543 && url.database == "shop")
    let defaults = try PostgresURL(
      "postgresql:///", environment: ["PGUSER": "ann", "PGPASSWORD": "pw", "PGPORT": "5433"].get)
    #expect(defaults.user == "ann" && defaults.password == "pw" && defaults.port == 5433)
    #expect(defaults.database == "ann" && defaults.host == "localhost")
    #expect(throws: DatabaseError.self) { _ = try PostgresURL("postgresql://h:99999/x") }
    #expect(throws: DatabaseError.self) { _ = try PostgresURL("mysql://h/x") }
    // Timeouts: 30 s to connect and authenticate, none for reading, unless said; 0 is none.
    #expect(url.connectTimeout == 30 && url.readTimeout == nil)
    let timed = try PostgresURL(
      "postgresql://h/x?connect_timeout=0&read_timeout=5", environment: { _ in nil })
    #expect(timed.connectTimeout == nil && timed.readTimeout == 5)
    let fromEnvironment = try PostgresURL(
      "postgresql://h/x", environment: ["PGCONNECT_TIMEOUT": "7"].get)
    #expect(fromEnvironment.connectTimeout == 7)
    for bad in ["read_timeout=-1", "connect_timeout=soon", "read_timeout="] {
      #expect(throws: DatabaseError.self, "\(bad)") {
        _ = try PostgresURL("postgresql://h/x?" + bad, environment: { _ in nil })
      }
    }
  }
}

extension Dictionary where Key == String, Value == String {
  func get(_ key: String) -> String? { self[key] }
}
