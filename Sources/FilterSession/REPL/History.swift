import FilterData
import Foundation

/// The REPL's history file: one entry per line, line breaks inside an entry written as `\n`
/// (and backslashes as `\\`). Keeps the last ``limit`` entries.
package struct History: Sendable {
  /// The file, or nil for no file (history only for this session).
  package let path: String?
  package static let limit = 1000

  package init(path: String?) { self.path = path }

  /// Where history lives: `$FLT_HISTORY`, else `~/.flt_history`; nil when neither is known.
  package static func defaultPath(environment: [String: String]) -> String? {
    if let path = environment["FLT_HISTORY"] { return path.isEmpty ? nil : path }
    guard let home = environment["HOME"], !home.isEmpty else { return nil }
    return home + "/.flt_history"
  }

  /// The entries saved, oldest first; none when the file does not exist, is not a regular
  /// file (a FIFO would block) or cannot be read. Only the file's last ``tailBytes`` are
  /// read, so a huge history costs no more than a full one; bytes that are not UTF-8 become
  /// U+FFFD.
  package func load() -> [String] {
    guard let path else { return [] }
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return [] }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return [] }
    let size = Int(status.st_size)
    let start = Swift.max(0, size - History.tailBytes)
    guard lseek(fd, off_t(start), SEEK_SET) == off_t(start) else { return [] }
    let bytes = Descriptor.read(fd, count: size - start)
    var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    // A tail that starts inside an entry drops that partial entry.
    if start > 0, !lines.isEmpty { lines.removeFirst() }
    return lines.suffix(History.limit).map { History.decode(String($0)) }
  }

  /// The most of the file's end that ``load()`` reads: room for ``limit`` long entries.
  static let tailBytes = 4 << 20

  /// Adds `entry` to the file as it is now (other sessions may have added theirs since this
  /// one loaded it), dropping an earlier copy; false when it cannot be written.
  @discardableResult
  package func add(_ entry: String) -> Bool {
    guard !entry.trimmingSpaces.isEmpty else { return true }
    var entries = load()
    entries.removeAll { $0 == entry }
    entries.append(entry)
    return save(entries)
  }

  /// Writes `entries` (the last ``limit`` of them). Failing to write history is not an
  /// error worth interrupting a session for: it returns false.
  @discardableResult
  package func save(_ entries: [String]) -> Bool {
    guard let path else { return true }
    let text = entries.suffix(History.limit).map(History.encode).joined(separator: "\n") + "\n"
    // Private (what was typed may hold anything), through a symlink to a shared history.
    return FilePaths.writeAtomically(Array(text.utf8), to: path, mode: 0o600) == nil
  }

  static func encode(_ entry: String) -> String {
    var out = ""
    for c in entry {
      switch c {
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      default: out.append(c)
      }
    }
    return out
  }

  static func decode(_ line: String) -> String {
    var out = ""
    var escaped = false
    for c in line {
      if escaped {
        switch c {
        case "n": out += "\n"
        case "r": out += "\r"
        default: out.append(c)
        }
        escaped = false
      } else if c == "\\" {
        escaped = true
      } else {
        out.append(c)
      }
    }
    return out
  }
}
