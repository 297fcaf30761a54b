import FilterDSL

/// How the columns of a CSV file become fields: one field per column, except that dotted
/// header names of plain names (`camera.megapixels`, `camera.zoom`, as flt writes nested
/// records) become fields of a nested record, so a filter reads the same whether the data
/// came as JSON or as flattened CSV. Any other header is a column name as it is: `Term
/// (yyyy.mm.dd)`, `1.5`, `e-mail.address (work)`.
struct CSVColumns {
  /// The header's names, in order.
  let header: [String]
  /// For each column, the path of slots of its field: `[2]`, or `[5, 0]` for a nested one.
  let paths: [[Int]]
  /// The tree of top-level names with their nested names, in order of first appearance.
  let tree: NameTree

  /// Which cells are null besides empty ones.
  let nulls: NullTexts
  /// The columns whose type the user fixed (`--type`): their numbers may have leading zeros.
  let fixedColumns: Set<Int>

  /// The deepest dotted name nested; deeper names stay whole.
  static let maxNesting = 8

  init(header: [String], nulls: NullTexts, fixed: Set<String> = []) {
    self.header = header
    self.nulls = nulls
    fixedColumns = Set(header.indices.filter { fixed.contains(header[$0]) })
    let tree = NameTree()
    var paths: [[Int]] = []
    for (column, name) in header.enumerated() {
      let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
      let nestable =
        parts.count > 1 && parts.count <= CSVColumns.maxNesting
        && parts.allSatisfy(CSVColumns.isPlainName)
      paths.append(tree.insert(nestable ? parts[...] : [name][...], column: column))
    }
    self.paths = paths
    self.tree = tree
  }

  /// Whether `part` of a dotted header is a plain name, as a field flt writes is named: a
  /// letter or `_`, then letters, digits and `_`.
  static func isPlainName(_ part: String) -> Bool {
    guard let first = part.unicodeScalars.first,
      first == "_" || first.properties.isAlphabetic
    else { return false }
    return part.unicodeScalars.allSatisfy {
      $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)
    }
  }

  /// A node of nested names: a leaf is a column, an inner node a nested record. Names are
  /// found through a dictionary, so a header of any width is read in linear time.
  final class NameTree {
    var names: [String] = []
    var children: [NameTree?] = []
    /// For a leaf, the header column it reads (the first, when a name repeats).
    var columns: [Int?] = []
    /// The slot of each name (its first one).
    private var slots: [String: Int] = [:]

    /// The slot path of `parts`, read from header column `column`, adding what is new. A name
    /// that is both a column and a record (`camera` and `camera.zoom`) keeps the later one
    /// whole.
    func insert(_ parts: ArraySlice<String>, column: Int) -> [Int] {
      guard let first = parts.first else { return [] }
      let rest = parts.dropFirst()
      if let slot = slots[first] {
        if rest.isEmpty || children[slot] == nil {
          if rest.isEmpty && children[slot] == nil { return [slot] }
          return append(parts.joined(separator: "."), child: nil, column: column)
        }
        return [slot] + (children[slot]?.insert(rest, column: column) ?? [])
      }
      if rest.isEmpty { return append(first, child: nil, column: column) }
      let child = NameTree()
      return append(first, child: child, column: nil) + child.insert(rest, column: column)
    }

    private func append(_ name: String, child: NameTree?, column: Int?) -> [Int] {
      let slot = names.count
      if slots[name] == nil { slots[name] = slot }
      names.append(name)
      children.append(child)
      columns.append(column)
      return [slot]
    }
  }

  /// Tallies the cells of one record (the values of a column, as text) into `record`.
  func tally(_ cells: [CSVCell], _ scanner: CSVScanner, into record: inout RecordTally) {
    record.records += 1
    tally(tree, path: [], cells, scanner, &record)
  }

  private func tally(
    _ node: NameTree, path: [Int], _ cells: [CSVCell], _ scanner: CSVScanner,
    _ record: inout RecordTally
  ) {
    for (slot, name) in node.names.enumerated() {
      let field = record.field(name)
      if let child = node.children[slot] {
        record.tallies[field].records += 1
        record.tallies[field].fields.records += 1
        self.tally(child, path: path + [slot], cells, scanner, &record.tallies[field].fields)
      } else if let column = node.columns[slot], column < cells.count {
        self.tally(cells[column], scanner, into: &record.tallies[field])
      }
    }
  }

  func tally(_ cell: CSVCell, _ scanner: CSVScanner, into tally: inout TypeTally) {
    let bytes = scanner.bytes
    if cell.start == cell.end || nulls.isNamed(bytes, cell.start, cell.end) {
      tally.nulls += 1
    } else if nulls.isUsual(bytes, cell.start, cell.end) {
      tally.add(nullText: scanner.text(cell))
    } else if let int = NumberText.integer(bytes, cell.start, cell.end) {
      // (A quoted cell is a value like any other, as DuckDB and pandas read it: pandas'
      // QUOTE_ALL writes every number in quotes. `--type x=string` keeps text.)
      tally.add(number: .int(int), bytes, cell.start, cell.end)
    } else if let double = NumberText.decimal(bytes, cell.start, cell.end) {
      tally.add(number: .double(double), bytes, cell.start, cell.end)
    } else if CSVColumns.boolean(bytes, cell) != nil {
      tally.bools += 1
    } else {
      let text = scanner.text(cell)
      tally.add(string: text)
      tally.add(spelling: Array(text.utf8))
    }
  }

  /// A cell that spells true or false: `true`, `false`, and as pandas (`True`) and
  /// spreadsheets (`TRUE`) write them, as DuckDB reads them.
  static func boolean(_ bytes: UnsafeBufferPointer<UInt8>, _ cell: CSVCell) -> Bool? {
    let slice = bytes[cell.start..<cell.end]
    for (spelling, value) in CSVColumns.booleans where slice.elementsEqual(spelling.utf8) {
      return value
    }
    return nil
  }

  private static let booleans: [(String, Bool)] = [
    ("true", true), ("false", false), ("True", true), ("False", false), ("TRUE", true),
    ("FALSE", false),
  ]

  /// The value of a cell as `type`, or nil when it is not one. Empty cells, and cells the
  /// user named as null, are null; the usual null texts (`NA`) are null unless `type` is text.
  /// A quoted empty cell (`""`) is empty text in a text column (as PostgreSQL's `COPY` reads
  /// it), null elsewhere.
  func value(_ cell: CSVCell, _ scanner: CSVScanner, as type: ValueType, column: Int) -> Value? {
    // (Per cell of a load: the set is looked in only when the user fixed a type.)
    guard !fixedColumns.isEmpty, fixedColumns.contains(column), type == .int || type == .double
    else {
      return value(cell, scanner, as: type)
    }
    // A type the user fixed converts what it can, as `int("004")` does: leading zeros too.
    return value(cell, scanner, as: type)
      ?? NumberText.integer(leadingZeros: scanner.bytes, cell.start, cell.end).map(Value.int)
  }

  /// The value of a cell as `type`, or nil when it is not one (see
  /// ``value(_:_:as:column:)``).
  private func value(_ cell: CSVCell, _ scanner: CSVScanner, as type: ValueType) -> Value? {
    let bytes = scanner.bytes
    if cell.start == cell.end { return cell.quoted && type == .string ? .string("") : .null }
    if nulls.isNamed(bytes, cell.start, cell.end) { return .null }
    let value: Value?
    switch type {
    case .string:
      return .string(scanner.text(cell))
    case .int:
      value = NumberText.integer(bytes, cell.start, cell.end).map(Value.int)
    case .double:
      if let int = NumberText.integer(bytes, cell.start, cell.end) { return .int(int) }
      value = NumberText.decimal(bytes, cell.start, cell.end).map(Value.double)
    case .decimal:
      value = NumberText.exactDecimal(bytes, cell.start, cell.end).map(Value.decimal)
    case .bool:
      value = CSVColumns.boolean(bytes, cell).map(Value.bool)
    case .date, .dateTime:
      let date = Value.isoDate(Array(scanner.text(cell).utf8))
      value = date.flatMap { $0.isOfType(type) ? $0 : nil }
    case .time:
      value = Value.isoTime(Array(scanner.text(cell).utf8)).map(Value.time)
    case .duration:
      value = Value.duration(Array(scanner.text(cell).utf8)).map(Value.duration)
    case .null:
      value = nil
    default:
      return .string(scanner.text(cell))
    }
    if value == nil && nulls.isUsual(bytes, cell.start, cell.end) { return .null }
    return value
  }
}
