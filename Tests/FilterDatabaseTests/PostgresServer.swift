import FilterDatabase
import FilterSQL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The throwaway PostgreSQL server `.ci/postgres start` runs for the tests (CI starts it; its
/// environment says where). Without it the PostgreSQL tests are skipped, and say so.
enum PostgresServer {
  static let port = getenv("FLT_POSTGRES_PORT").map { String(cString: $0) }
  static let socket = getenv("FLT_POSTGRES_SOCKET").map { String(cString: $0) }
  static let available: Bool = {
    if port == nil {
      print(
        "*** PostgreSQL tests SKIPPED: no server (run `eval $(.ci/postgres start)` first; .ci/run does) ***"
      )
    }
    return port != nil
  }()

  /// The ports of the coordinator's two shards (`.ci/postgres` starts them with the server;
  /// the server's database `flt` reaches them as the foreign servers `flt_shard1` and
  /// `flt_shard2`), and the files each logs its statements to.
  static let shardPorts = list("FLT_POSTGRES_SHARD_PORTS")
  static let shardLogs = list("FLT_POSTGRES_SHARD_LOGS")
  static let shardsAvailable: Bool = {
    if port != nil && shardPorts.count != 2 {
      print("*** sharded PostgreSQL tests SKIPPED: the server has no shards ***")
    }
    return port != nil && shardPorts.count == 2 && shardLogs.count == 2
  }()

  /// The folder of the throwaway CA's files when the server has TLS on (`ca.crt`,
  /// `other-ca.crt`, `client.crt`, `client.key`; see `.ci/postgres`).
  static let tls = getenv("FLT_POSTGRES_TLS").map { String(cString: $0) }
  static let tlsAvailable: Bool = {
    if port != nil && tls == nil {
      print("*** PostgreSQL TLS tests SKIPPED: the server has no TLS (openssl was missing) ***")
    }
    return port != nil && tls != nil
  }()

  private static func list(_ name: String) -> [String] {
    getenv(name).map { String(cString: $0).split(separator: ",").map(String.init) } ?? []
  }

  /// A URL for `user` with `password` over TCP.
  static func url(_ user: String = "flt_scram", password: String? = "scram pass") -> String {
    let info = password.map { user + ":" + $0.replacingAll(" ", "%20") } ?? user
    return "postgresql://\(info)@127.0.0.1:\(port ?? "5432")/flt"
  }

  /// A URL for `user` over the Unix socket.
  static func socketURL(_ user: String, password: String?) -> String {
    let info = password.map { user + ":" + $0.replacingAll(" ", "%20") } ?? user
    return "postgresql://\(info)@:\(port ?? "5432")/flt?host=\(socket ?? "/tmp")"
  }

  static func connect() throws -> PostgresConnection {
    try PostgresConnection(url: url())
  }

  /// The database `flt` of the shard `index` (0 or 1), as `flt_scram`.
  static func connectToShard(_ index: Int) throws -> PostgresConnection {
    try PostgresConnection(
      url: "postgresql://flt_scram:scram%20pass@127.0.0.1:\(shardPorts[index])/flt")
  }
}

extension String {
  func replacingAll(_ target: Character, _ replacement: String) -> String {
    var result = ""
    for c in self { if c == target { result += replacement } else { result.append(c) } }
    return result
  }
}
