/// One field's values for every row of a ``ColumnTable``, stored by type: text, true-or-false
/// values, and integers, dates, times, durations, lists and nested records with few distinct
/// values, as codes into their distinct values; other integers and decimals in flat buffers
/// with a null mask; anything else (many distinct dates, lists or records; a mix of kinds)
/// as values. A column where few rows have a value keeps only those rows and their values.
public struct Column: Sendable {
  /// How the values are stored.
  enum Storage: Sendable {
    case int([Int64], NullMask)
    case double([Double], NullMask)
    /// Codes into ``Dictionary`` (code 0 is null): text, true-or-false values, and other
    /// kinds of value with few distinct values; a byte a row while there are at most 255.
    case coded(Codes, Dictionary)
    case values([Value])
    /// Few rows have a value: those rows and their values (``Sparse``).
    case sparse(Sparse)
  }

  /// The values of a column where few rows have one: the rows that have a value, in order,
  /// and their values; every other row is null. A file whose records each bring new keys has
  /// thousands of fields with a value in a row or two: stored this way, a column costs what
  /// its values do, not a slot in every row.
  struct Sparse: Sendable {
    /// The rows with a value, in increasing order.
    var rows: [Int]
    /// The value of each of those rows (none is null).
    var values: [Value]
    /// How many rows the column has.
    var count: Int

    /// The value of `row`: found by binary search, null when the row has none.
    func value(at row: Int) -> Value {
      let index = position(of: row)
      return index < rows.count && rows[index] == row ? values[index] : .null
    }

    /// Where `row` is in ``rows``, or where it would go.
    func position(of row: Int) -> Int { rows.position(of: row) }
  }

  /// The distinct values of a coded column, with the first row holding each: a test that
  /// reads only this column is evaluated once per distinct value, on that row.
  struct Dictionary: Sendable {
    /// By code; `values[0]` is null.
    var values: [Value] = [.null]
    /// By code: the first row with that value. For null, -1: a row outside the table, whose
    /// fields all read as null.
    var firstRows: [Int] = [-1]
  }

  var storage: Storage

  /// How many rows the column has.
  public var count: Int {
    switch storage {
    case .int(let values, _): values.count
    case .double(let values, _): values.count
    case .coded(let codes, _): codes.count
    case .values(let values): values.count
    case .sparse(let sparse): sparse.count
    }
  }

  /// The value of `row` (null outside the column).
  public func value(at row: Int) -> Value {
    guard row >= 0, row < count else { return .null }
    switch storage {
    case .int(let values, let nulls): return nulls.isNull(row) ? .null : .int(values[row])
    case .double(let values, let nulls): return nulls.isNull(row) ? .null : .double(values[row])
    case .coded(let codes, let dictionary):
      let code = Int(codes[row])
      return code < dictionary.values.count ? dictionary.values[code] : .null
    case .values(let values): return values[row]
    case .sparse(let sparse): return sparse.value(at: row)
    }
  }

  /// The distinct values of a coded column, by code (code 0 is null); nil for a column stored
  /// otherwise. With ``code(at:)``, how output makes each distinct value's text once.
  package var distinctValues: [Value]? {
    guard case .coded(_, let dictionary) = storage else { return nil }
    return dictionary.values
  }

  /// The code of `row` in a coded column (an index into ``distinctValues``); 0 (null) outside
  /// the column or for a column stored otherwise.
  package func code(at row: Int) -> Int {
    guard case .coded(let codes, _) = storage else { return 0 }
    return Int(codes.code(at: row))
  }

  /// How the column is stored, as `:memory` shows it: `int`, `double`, `coded` (with the
  /// number of distinct values) or `values`.
  public var layout: String {
    switch storage {
    case .int: "int"
    case .double: "double"
    case .coded(_, let dictionary): "coded, \(dictionary.values.count - 1) distinct"
    case .values: "values"
    case .sparse(let sparse): "sparse, \(sparse.values.count) with a value"
    }
  }

  /// About how many bytes the column takes (buffers, masks, distinct values; for values,
  /// their inline size and the text and lists they hold).
  public var bytes: Int {
    switch storage {
    case .int(let values, let nulls): values.count * 8 + nulls.bytes
    case .double(let values, let nulls): values.count * 8 + nulls.bytes
    case .coded(let codes, let dictionary):
      codes.count * codes.width + dictionary.firstRows.count * 8
        + dictionary.values.reduce(0) { $0 + Column.size(of: $1) }
    case .values(let values): values.reduce(0) { $0 + Column.size(of: $1) }
    case .sparse(let sparse):
      sparse.rows.count * 8 + sparse.values.reduce(0) { $0 + Column.size(of: $1) }
    }
  }

  /// The inline size of a value plus what it owns on the heap (text longer than fits inline,
  /// list and record elements).
  static func size(of value: Value) -> Int {
    var total = MemoryLayout<Value>.stride
    var pending: [Value] = [value]
    while let next = pending.popLast() {
      switch next {
      case .string(let text) where text.utf8.count > 15: total += text.utf8.count + 32
      case .list(let items), .record(let items):
        total += 32 + items.count * MemoryLayout<Value>.stride
        pending += items
      default: break
      }
    }
    return total
  }
}

/// Which rows of a column are null: one bit per row, empty when none is.
struct NullMask: Sendable {
  private(set) var words: [UInt64] = []

  init() {}

  /// The mask of `nulls` (true for a null row); none when nil.
  init(_ nulls: [Bool]?) {
    for (row, null) in (nulls ?? []).enumerated() where null { set(row, null: true) }
  }

  @inline(__always) func isNull(_ row: Int) -> Bool {
    let word = row >> 6
    return word < words.count && words[word] & (1 << UInt64(row & 63)) != 0
  }

  mutating func set(_ row: Int, null: Bool) {
    let word = row >> 6
    if word >= words.count {
      guard null else { return }
      words += repeatElement(0, count: word - words.count + 1)
    }
    if null {
      words[word] |= 1 << UInt64(row & 63)
    } else {
      words[word] &= ~(1 << UInt64(row & 63))
    }
  }

  /// Adds the nulls of `other`, its row 0 at row `offset`.
  mutating func append(_ other: NullMask, at offset: Int) {
    for (index, word) in other.words.enumerated() where word != 0 {
      var bits = word
      while bits != 0 {
        set(offset + index * 64 + bits.trailingZeroBitCount, null: true)
        bits &= bits - 1
      }
    }
  }

  var bytes: Int { words.count * 8 }
}

extension [Int] {
  /// Where `value` is in this ascending array, or where it would go: a binary search.
  func position(of value: Int) -> Int {
    var (low, high) = (0, count)
    while low < high {
      let middle = low + (high - low) / 2
      if self[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
