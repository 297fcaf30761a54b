/// The records a query matched, in order, made when they are read: a page of them is printed
/// without reading back the text of the rest (see ``LoadedRecords``).
public struct MatchedRecords: Sendable {
  private let source: Source

  private enum Source: Sendable {
    case rows([Int], of: LoadedRecords)
    case records([DataRecord])
  }

  /// Rows `rows` of `loaded`, in that order.
  public init(rows: [Int], of loaded: LoadedRecords) { source = .rows(rows, of: loaded) }

  /// `records`, as they are.
  public init(_ records: [DataRecord]) { source = .records(records) }

  /// How many records matched.
  public var count: Int {
    switch source {
    case .rows(let rows, _): rows.count
    case .records(let records): records.count
    }
  }

  /// The records at positions `range` (clamped to ``count``), in order.
  public func records(_ range: Range<Int>) -> [DataRecord] {
    let range = range.clamped(to: 0..<count)
    switch source {
    case .rows(let rows, let loaded): return loaded.records(Array(rows[range]))
    case .records(let records): return Array(records[range])
    }
  }

  /// Every record.
  public var all: [DataRecord] { records(0..<count) }
}
