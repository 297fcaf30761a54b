import FilterData

/// What `set` changes: how results are printed.
public struct Settings: Sendable {
  /// `set format table|records|json|jsonl|csv|tsv`.
  public var format: OutputFormat = .table
  /// `set limit N`: the most rows (and facet values) printed; nil for all (`set limit none`).
  public var limit: Int?
  /// `set time on`: print how long each statement took (to standard error).
  public var time = false
  /// `set width N`: the widest a table cell is shown, in terminal columns.
  public var width = 40
  /// `set null "∅"`: how a table shows null (empty text is shown empty).
  public var nullText = "null"
  /// `set memory 4GB`: the most memory the process may use while a `load` reads (it stops
  /// with an error past it, keeping the data loaded before); nil for no limit (`set memory
  /// none`). Three quarters of the machine's memory by default.
  public var memoryLimit: Int? = ProcessMemory.defaultLimit
  /// `set live off`: the REPL stops showing, under the line being typed, how many records
  /// the filter matches (or its first error). On by default; only ever on a terminal.
  public var live = true
  /// `set pager off`: the REPL prints results taller than the screen instead of showing them
  /// through `$PAGER` (or `less`). On in an interactive REPL, off elsewhere.
  public var pager = false
  /// `show model, price`: the columns printed; nil for every field (`show *`). Loading or
  /// switching data resets it.
  public var columns: [String]?
  /// How long the REPL's live preview waits for a database to count a table's matches (a
  /// quarter of a second): past it, the count is cancelled there and the status says that
  /// the statement checks. Not a `set` setting.
  public var previewSeconds = 0.25

  /// The default settings: a table, every row, no timing, cells up to 40 columns, loads up to
  /// three quarters of the machine's memory.
  public init() {}

  /// The settings `set` knows, with what each takes, in words and as `:help` shows it.
  /// Errors, completion and help read this table.
  public static let names: [(name: String, values: String, usage: String)] = [
    (
      "format", "table, records, json, jsonl, csv, tsv or values",
      "table|records|json|jsonl|csv|tsv|values"
    ),
    ("limit", "a number of rows (0 or more), or none", "N|none"),
    ("time", "on or off", "on|off"),
    ("width", "a number of columns, 10 or more", "N"),
    ("null", "text in quotes, shown for null in tables", "\"TEXT\""),
    ("memory", "a size (4GB, 512MB, 2GiB), or none", "SIZE|none"),
    ("live", "on or off", "on|off"),
    ("pager", "on or off", "on|off"),
  ]

  /// The value of setting `name` as `set` takes it (`json`, `none`, `on`, `40`).
  public func value(of name: String) -> String? {
    switch name {
    case "format": format.rawValue
    case "limit": limit.map(String.init) ?? "none"
    case "time": time ? "on" : "off"
    case "width": String(width)
    case "null": nullText.debugDescription
    case "memory": memoryLimit.map(ProcessMemory.describe) ?? "none"
    case "live": live ? "on" : "off"
    case "pager": pager ? "on" : "off"
    default: nil
    }
  }

  /// What `set` alone prints: every setting, its value and what it takes, one per line.
  public var listing: String {
    let rows = Settings.names.map { ($0.name, value(of: $0.name) ?? "", $0.usage) }
    let nameWidth = rows.map(\.0.count).max() ?? 0
    let valueWidth = rows.map(\.1.count).max() ?? 0
    return rows.map { name, value, values in
      name + String(repeating: " ", count: nameWidth - name.count + 2) + value
        + String(repeating: " ", count: valueWidth - value.count + 2) + "set \(name) " + values
        + "\n"
    }.joined()
  }
}
