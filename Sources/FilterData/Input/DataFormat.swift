/// The formats of data files `flt` reads.
public enum DataFormat: String, CaseIterable, Sendable {
  /// A JSON array of objects (or a single object).
  case json
  /// JSON Lines: one object per line.
  case jsonl
  /// Comma-separated values (RFC 4180) with a header row.
  case csv
  /// Tab-separated values with a header row (quoted like CSV where a cell needs it).
  case tsv
  /// Apache Parquet: columns in row groups, read by ``ParquetSource``.
  case parquet

  /// The byte between the cells of a row, for CSV and TSV; nil for JSON.
  var separator: UInt8? {
    switch self {
    case .csv: 0x2C
    case .tsv: 0x09
    case .json, .jsonl, .parquet: nil
    }
  }

  /// The format a file name's extension says, if any: `.json` (and `.geojson`), `.jsonl` /
  /// `.ndjson`, `.csv`, `.tsv` / `.tab`, `.parquet` / `.parq` / `.pq`, each compressed too
  /// (`.gz`, `.zst`, `.xz`, `.bz2`).
  public init?(path: String) {
    // A compressed file has the extension of what it holds before `.gz`, `.zst`, `.xz`, `.bz2`.
    for suffix in [".gz", ".zst", ".xz", ".bz2"] where path.lowercased().hasSuffix(suffix) {
      self.init(path: String(path.dropLast(suffix.count)))
      return
    }
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
    switch path[path.index(after: dot)...].lowercased() {
    case "json", "geojson": self = .json
    case "jsonl", "ndjson": self = .jsonl
    case "csv": self = .csv
    case "tsv", "tab": self = .tsv
    case "parquet", "parq", "pq": self = .parquet
    default: return nil
    }
  }
}
