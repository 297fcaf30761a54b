/// The formats of data files `flt` reads.
public enum DataFormat: String, CaseIterable, Sendable {
  /// A JSON array of objects (or a single object).
  case json
  /// JSON Lines: one object per line.
  case jsonl
  /// Comma-separated values (RFC 4180) with a header row.
  case csv

  /// The format a file name's extension says, if any: `.json`, `.jsonl` / `.ndjson`, `.csv`.
  public init?(path: String) {
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
    switch path[path.index(after: dot)...].lowercased() {
    case "json": self = .json
    case "jsonl", "ndjson": self = .jsonl
    case "csv": self = .csv
    default: return nil
    }
  }
}
