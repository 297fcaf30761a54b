import FilterData

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// libpq's password file (`~/.pgpass`, or `PGPASSFILE`): lines of
/// `hostname:port:database:username:password`, each field `*` for any, `\:` and `\\` for a
/// colon and a backslash, `#` for a comment. The first line that matches gives the password.
/// As libpq, a file others may read is not used.
enum PasswordFile {
  /// The lines of the file at `path`, split into fields; nil when it cannot be read, is not a
  /// regular file, is readable by its group or others, or is larger than 1 MiB.
  static func read(_ path: String) -> [[String]]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
      status.st_mode & 0o077 == 0, status.st_size <= 1 << 20
    else { return nil }
    let text = String(decoding: Descriptor.read(fd, count: Int(status.st_size)), as: UTF8.self)
    return text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).compactMap { line in
      guard !line.hasPrefix("#") else { return nil }
      return fields(line)
    }
  }

  /// A line's fields, `\:` and `\\` unescaped; nil unless it has five.
  static func fields(_ line: Substring) -> [String]? {
    var fields: [String] = [""]
    var escaped = false
    for character in line {
      if escaped {
        fields[fields.count - 1].append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == ":" && fields.count < 5 {
        fields.append("")
      } else {
        fields[fields.count - 1].append(character)
      }
    }
    return fields.count == 5 ? fields : nil
  }

  /// The password of the first line matching the connection (`*` matches anything; a Unix
  /// socket's directory matches `localhost`, as in libpq).
  static func password(
    in lines: [[String]], host: String, port: Int, database: String, user: String
  ) -> String? {
    let wanted = [host.hasPrefix("/") ? "localhost" : host, String(port), database, user]
    return lines.first { fields in
      zip(fields.prefix(4), wanted).allSatisfy { $0 == "*" || $0 == $1 }
    }?[4]
  }
}
