import FilterDSL
import FilterData

/// What `:memory` prints: how each field of loaded data is stored and about how many bytes it
/// takes, then the records' text (kept for output) and the total.
enum MemoryReport {
  static func text(_ records: LoadedRecords) -> String {
    let table = records.table
    var rows: [(String, String, Int)] = zip(table.schema.fields, table.columns).map {
      ($0.name, $1.layout, $1.bytes)
    }
    let kept = records.textInFile ? "read back from the file" : "copied"
    rows.append(("(text, for output)", "\(records.count) records, \(kept)", records.textBytes))
    let nameWidth = rows.reduce(5) { max($0, $1.0.count) }
    let layoutWidth = rows.reduce(9) { max($0, $1.1.count) }
    func line(_ name: String, _ layout: String, _ size: String) -> String {
      name.padding(nameWidth) + "  " + layout.padding(layoutWidth) + "  " + size + "\n"
    }
    var out = line("field", "stored as", "size")
    for (name, layout, bytes) in rows { out += line(name, layout, ProcessMemory.describe(bytes)) }
    out += line("total", "", ProcessMemory.describe(records.bytes))
    return out
  }
}

extension String {
  fileprivate func padding(_ width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
