#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a PostgreSQL server is and who connects: `postgresql://user[:password]@host[:port]/
/// database`, with `?host=/socket/dir` for a Unix socket, TLS settings (``TLSSettings``),
/// `connect_timeout` and `read_timeout` (seconds). What the URL leaves out comes from
/// `PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD`, `PGDATABASE`, `PGCONNECT_TIMEOUT` and the TLS
/// variables, as libpq does.
public struct PostgresURL: Hashable, Sendable, CustomStringConvertible {
  /// A host name or address, or a directory holding the server's Unix socket (starts with `/`).
  public var host: String
  /// The TCP port, or the number in the socket's name.
  public var port: Int
  /// Who connects.
  public var user: String
  /// The password, when one was given.
  public var password: String?
  /// The database connected to.
  public var database: String
  /// The longest connecting and authenticating may take, in seconds (`connect_timeout`, 30
  /// unless said; 0 for no limit, nil).
  public var connectTimeout: Int?
  /// The longest the client waits for the server to send anything once connected, in seconds
  /// (`read_timeout`; none unless said: a query may take long before its first row).
  public var readTimeout: Int?
  /// TLS: `sslmode`, `sslrootcert`, `sslcert`, `sslkey`, `channel_binding`, `sslsni` (and their
  /// `PG*` variables), with libpq's meanings.
  public var tls: TLSSettings

  /// Reads `text`; `environment` stands in for the process's environment variables.
  public init(_ text: String, environment: (String) -> String? = PostgresURL.variable)
    throws(DatabaseError)
  {
    // Messages show the URL without its password.
    let shown = Self.redacted(text)
    var rest = Substring(text)
    guard let scheme = ["postgresql://", "postgres://"].first(where: { rest.hasPrefix($0) }) else {
      throw DatabaseError(
        "\(shown) is not a PostgreSQL URL", help: "write postgresql://user@host:port/database")
    }
    rest = rest.dropFirst(scheme.count)
    var query: [String: String] = [:]
    if let mark = rest.firstIndex(of: "?") {
      for pair in rest[rest.index(after: mark)...].split(separator: "&") {
        // `pair` is not empty, but its name may be (`?=x`): split keeps empty parts.
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard let name = parts.first, !name.isEmpty else {
          throw DatabaseError(
            "\(shown): '\(Self.redacted(String(pair)))' has no parameter name",
            help: "write name=value, such as sslmode=disable")
        }
        query[String(name)] = try Self.decoded(
          parts.count > 1 ? String(parts[1]) : "", in: shown)
      }
      rest = rest[..<mark]
    }
    var path = ""
    if let slash = rest.firstIndex(of: "/") {
      path = try Self.decoded(String(rest[rest.index(after: slash)...]), in: shown)
      rest = rest[..<slash]
    }
    var user: String?
    var password: String?
    if let at = rest.lastIndex(of: "@") {
      let info = rest[..<at]
      if let colon = info.firstIndex(of: ":") {
        user = try Self.decoded(String(info[..<colon]), in: shown)
        password = try Self.decoded(String(info[info.index(after: colon)...]), in: shown)
      } else {
        user = try Self.decoded(String(info), in: shown)
      }
      rest = rest[rest.index(after: at)...]
    }
    var host = ""
    var port: String?
    if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
      // An IPv6 address in brackets (`[::1]:5432`): its colons are not the port's.
      host = String(rest[rest.index(after: rest.startIndex)..<close])
      let after = rest[rest.index(after: close)...]
      if after.hasPrefix(":") {
        port = String(after.dropFirst())
      } else if !after.isEmpty {
        throw DatabaseError(
          "\(shown): '\(after)' after the address in brackets",
          help: "write the port after a colon: postgresql://[::1]:5432/db")
      }
    } else if let colon = rest.lastIndex(of: ":") {
      host = String(rest[..<colon])
      port = String(rest[rest.index(after: colon)...])
    } else {
      host = String(rest)
    }
    host = try Self.decoded(host, in: shown)
    tls = try TLSSettings(parameters: query, environment: environment, shown: shown)
    self.host = query["host"] ?? (host.isEmpty ? environment("PGHOST") ?? "localhost" : host)
    let portText = query["port"] ?? port ?? environment("PGPORT") ?? "5432"
    guard let number = Int(portText), (1...65535).contains(number) else {
      throw DatabaseError("\(shown): '\(portText)' is not a port number")
    }
    self.port = number
    self.user =
      query["user"] ?? user ?? environment("PGUSER") ?? environment("USER") ?? "postgres"
    self.password =
      query["password"] ?? password ?? environment("PGPASSWORD")
    self.database =
      query["dbname"] ?? (path.isEmpty ? environment("PGDATABASE") ?? self.user : path)
    connectTimeout = try Self.seconds(
      "connect_timeout", query["connect_timeout"] ?? environment("PGCONNECT_TIMEOUT") ?? "30",
      in: shown)
    readTimeout = try Self.seconds("read_timeout", query["read_timeout"] ?? "0", in: shown)
    if self.password == nil {
      let file = environment("PGPASSFILE") ?? environment("HOME").map { $0 + "/.pgpass" }
      self.password = file.flatMap { PasswordFile.read($0) }.flatMap { lines in
        PasswordFile.password(
          in: lines, host: self.host, port: self.port, database: self.database, user: self.user)
      }
    }
  }

  /// A number of seconds given as `name=text`: nil for 0 (no limit).
  private static func seconds(_ name: String, _ text: String, in url: String)
    throws(DatabaseError) -> Int?
  {
    guard let seconds = Int(text), seconds >= 0 else {
      throw DatabaseError(
        "\(url): \(name)=\(text) is not a number of seconds",
        help: "write \(name)=10, or \(name)=0 for no limit")
    }
    return seconds == 0 ? nil : seconds
  }

  /// Whether `location` is a PostgreSQL URL (`postgresql://` or `postgres://`) rather than a
  /// file.
  public static func isURL(_ location: String) -> Bool {
    let lower = location.lowercased()
    return lower.hasPrefix("postgresql://") || lower.hasPrefix("postgres://")
  }

  /// The process's environment variable `name`.
  public static func variable(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// `text`, a URL as written, with its password shown as `****` (after `user:` and in a
  /// `password=` parameter): for messages and listings.
  public static func redacted(_ text: String) -> String {
    var out = text
    if let scheme = out.range(of: "://") {
      let authority = out[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" }
      if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
        out.replaceSubrange(out.index(after: colon)..<at, with: "****")
      }
    }
    guard let mark = out.firstIndex(of: "?") else { return out }
    let pairs = out[out.index(after: mark)...].split(
      separator: "&", omittingEmptySubsequences: false
    )
    .map { $0.hasPrefix("password=") ? "password=****" : String($0) }
    return out[...mark] + pairs.joined(separator: "&")
  }

  /// The URL without its password.
  public var description: String {
    let shownHost = host.hasPrefix("/") ? "" : host.contains(":") ? "[\(host)]" : host
    return "postgresql://\(user)@\(shownHost):\(port)/\(database)"
      + (host.hasPrefix("/") ? "?host=\(host)" : "")
  }

  /// `text` with `%XX` escapes decoded.
  private static func decoded(_ text: String, in url: String) throws(DatabaseError) -> String {
    var bytes: [UInt8] = []
    var input = Array(text.utf8)[...]
    while let byte = input.popFirst() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard input.count >= 2,
        let value = UInt8(String(decoding: input.prefix(2), as: UTF8.self), radix: 16)
      else { throw DatabaseError("\(url): a % must be followed by two hexadecimal digits") }
      // A zero byte would end the value early in the startup message and let the rest of it
      // name another parameter (libpq refuses it too).
      guard value != 0 else {
        throw DatabaseError(
          "\(url): %00 cannot be part of a URL", help: "a name or password holds no zero byte")
      }
      bytes.append(value)
      input = input.dropFirst(2)
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
