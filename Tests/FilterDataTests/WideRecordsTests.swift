import FilterDSL
import Testing

@testable import FilterData

/// Records that each bring a new key (a field per record, thousands of fields): read by
/// column, they cost what their values do, not their width (loading 40,000 of them took
/// 35 s and more, a query naming the last key over five minutes).
@Suite struct WideRecordsTests {
  static func file(records: Int) throws -> String {
    var text = ""
    for i in 0..<records { text += #"{"id": \#(i), "k\#(i)": "v\#(i % 7)"}"# + "\n" }
    return try DataFiles.write(text, "wide.jsonl")
  }

  /// Blocks read into columns are not cut by the width: a 3,000-field file of 100 KB comes
  /// in one block (cut to 174 rows a block, each block made a table and a compiled query of
  /// 3,001 columns).
  @Test func blocksOfRowsAreNotCutByTheirWidth() throws {
    let reader = try DataReader(path: try Self.file(records: 3_000), options: ReadOptions())
    try reader.inferWhole()
    reader.decodeOnly(["k2999"])
    var batches = 0
    var rows = 0
    while let block = try reader.nextBatches() {
      batches += block.count
      rows += block.reduce(0) { $0 + $1.count }
    }
    #expect(rows == 3_000)
    #expect(batches <= 2)
  }

  /// Loaded whole: every row's value in its own column, the rest null.
  @Test func aWideFileLoadsEveryValue() throws {
    let reader = try DataReader(path: try Self.file(records: 3_000), options: ReadOptions())
    let loaded = try LoadedRecords(reading: reader)
    let table = loaded.table
    #expect(table.count == 3_000 && table.schema.fields.count == 3_001)
    for row in [0, 1, 1_500, 2_999] {
      guard let (slot, _) = table.schema.field(named: "k\(row)") else {
        Issue.record("no field k\(row)")
        continue
      }
      #expect(table.value(row: row, slot: slot) == .string("v\(row % 7)"))
      #expect(table.value(row: (row + 1) % 3_000, slot: slot) == .null)
    }
  }
}
