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
    for (name, layout, bytes) in rows { out += line(name, layout, size(bytes)) }
    out += line("total", "", size(records.bytes))
    return out
  }

  /// `bytes` as people read it: B, KB, MB or GB (powers of 1,000), one decimal below 10.
  static func size(_ bytes: Int) -> String {
    let units = ["B", "KB", "MB", "GB", "TB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 1000, unit < units.count - 1 {
      value /= 1000
      unit += 1
    }
    let shown = unit > 0 && value < 10 ? (value * 10).rounded() / 10 : value.rounded()
    let text = shown == shown.rounded() ? String(Int(shown)) : String(shown)
    return text + " " + units[unit]
  }
}

extension String {
  fileprivate func padding(_ width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
