import FilterDSL
import Testing

@testable import FilterData

/// Parquet files Polars wrote (`Scripts/make-polars-fixtures.py`: zstd, its default; columns
/// of every type sparse, of one value, all null) read as their JSON Lines twins, row by row,
/// and count as they do.
@Suite struct PolarsParquetTests {
  static let folder = DataFiles.root.appendingPathComponent("Tests/Fixtures/polars").path

  @Test(arguments: ["sparse", "one-value", "all-null", "orders-zstd"])
  func everyRowReadsAsItsTwin(name: String) throws {
    try ParquetReaderTests.expectRowsAsTwin(Self.folder, name)
  }

  @Test(arguments: ["sparse", "one-value"])
  func everyTypeCountsAsOverTheTwin(name: String) throws {
    for filter in [
      "i64 >= 0", "i32 == -7", "f64 > 2", #"text == "Space Black""#, "flag", "day == 2024-02-29",
      "at > 2024-01-01", "i64 is null", "text is not null and flag",
    ] {
      #expect(
        try ParquetReaderTests.count("\(Self.folder)/\(name).parquet", filter)
          == ParquetReaderTests.count("\(Self.folder)/\(name).jsonl", filter), "\(name): \(filter)")
    }
  }

  /// Pages full of zstd's matches (sequential ids, prices of two decimals), in row groups of
  /// 2,048 rows.
  @Test func ordersCountAsOverTheTwin() throws {
    for filter in [
      "order_id > 10", "amount > 10", "amount == 12.34", "qty in (1, 9) and order_id < 4000",
    ] {
      #expect(
        try ParquetReaderTests.count("\(Self.folder)/orders-zstd.parquet", filter)
          == ParquetReaderTests.count("\(Self.folder)/orders-zstd.jsonl", filter), "\(filter)")
    }
  }
}
