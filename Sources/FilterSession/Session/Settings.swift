import FilterData

/// What `set` changes: how results are printed.
public struct Settings: Sendable {
  /// `set format table|json|jsonl|csv|tsv`.
  public var format: OutputFormat = .table
  /// `set limit N`: the most rows (and facet values) printed; nil for all (`set limit none`).
  public var limit: Int?
  /// `set time on`: print how long each statement took (to standard error).
  public var time = false
  /// `set width N`: the widest a table cell is shown, in terminal columns.
  public var width = 40
  /// `show model, price`: the columns printed; nil for every field (`show *`). Loading or
  /// switching data resets it.
  public var columns: [String]?

  /// The default settings: a table, every row, no timing, cells up to 40 columns.
  public init() {}

  /// The settings `set` knows, with what each takes, in words and as `:help` shows it.
  /// Errors, completion and help read this table.
  public static let names: [(name: String, values: String, usage: String)] = [
    ("format", "table, json, jsonl, csv or tsv", "table|json|jsonl|csv|tsv"),
    ("limit", "a number of rows (0 or more), or none", "N|none"),
    ("time", "on or off", "on|off"),
    ("width", "a number of columns, 10 or more", "N"),
  ]
}
