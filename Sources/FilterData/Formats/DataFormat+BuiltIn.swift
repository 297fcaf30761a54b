/// The formats flt reads itself: the text formats (``DataReader``), Parquet
/// (``ParquetSource``, ``ParquetFolder``) and Arrow (``ArrowSource``).
extension DataFormat {
  /// A JSON array of objects (or a single object).
  public static let json = text(
    "json", "JSON", details: "an array of objects", extensions: ["json", "geojson"])
  /// JSON Lines: one object per line.
  public static let jsonl = text("jsonl", "JSON Lines", extensions: ["jsonl", "ndjson"])
  /// Comma-separated values (RFC 4180) with a header row; `;`, tab or `|` between the cells
  /// is sniffed from the header.
  public static let csv = text(
    "csv", "CSV", details: "';', tab or '|' between cells sniffed from the header",
    extensions: ["csv"])
  /// Tab-separated values with a header row (quoted like CSV where a cell needs it; escapes
  /// as PostgreSQL's COPY writes them).
  public static let tsv = text("tsv", "TSV", extensions: ["tsv", "tab"])
  /// Apache Parquet: columns in row groups, read by ``ParquetSource`` (a folder of them by
  /// ``ParquetFolder``).
  public static let parquet = DataFormat(
    name: "parquet", title: "Parquet",
    details: "nested columns too; snappy, gzip, zstd, LZ4 or none",
    extensions: ["parquet", "parq", "pq"], magic: Array("PAR1".utf8), readsStreams: false,
    openFolder: { folder, name in try ParquetFolder(folder, name: name) },
    write: { schema, out in try ParquetWriter(schema: schema, to: out) },
    open: { input in
      // (readsStreams is false: open(_:) gives it a path.)
      try ParquetSource(path: input.path ?? "-", partitions: input.partitions)
    })

  /// flt's own formats, in the order the help lists them.
  static let builtIn = [json, jsonl, csv, tsv, parquet, arrow, arrowStream]

  /// The formats ``DataReader`` reads.
  static let texts: Set = [json, jsonl, csv, tsv]

  private static func text(
    _ name: String, _ title: String, details: String? = nil, extensions: [String]
  ) -> DataFormat {
    DataFormat(name: name, title: title, details: details, extensions: extensions) {
      input in
      try DataReader(
        path: input.path, format: builtIn.first { $0.name == name }, options: input.options)
    }
  }

  /// The byte between the cells of a row, for CSV and TSV; nil for the others.
  var separator: UInt8? {
    switch name {
    case "csv": 0x2C
    case "tsv": 0x09
    default: nil
    }
  }
}
