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

  /// The entries saved, oldest first; none when the file does not exist or cannot be read.
  package func load() -> [String] {
    guard let path, let data = FileManager.default.contents(atPath: path) else { return [] }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
    return lines.suffix(History.limit).map { History.decode(String($0)) }
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
