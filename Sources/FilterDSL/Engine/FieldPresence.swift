/// Which records have a field though its value is null: what `exists` asks beyond `is not
/// null`. A JSON key present with `null` exists; a key the object lacks does not. Filters ask
/// only for records whose value there is null (a field with a value always exists).
///
/// - ``values``: a field exists where it has a value. Typed Swift values and records you
///   build have no other notion (Codable, too, leaves out an optional that is nil).
/// - ``columns``: every field of the schema exists wherever the record it belongs to does:
///   the columns of a CSV file, a Parquet file or a database table (`exists camera.zoom` is
///   true where `camera` is a record).
/// - Keys present with null, listed by row: records read from JSON (see
///   ``ColumnTable/withPresence(_:)``).
///
/// A path through a list, or a field of a list's element inside `any list (...)`, exists where
/// its value is not null: the elements of a list are values.
public struct FieldPresence: Sendable {
  enum Rule: Sendable {
    case values
    case columns
    /// The rows (ascending) that have each path with a null value, by the path's names.
    case listed([[String]: [Int]])
  }

  private(set) var rule: Rule

  /// A field exists where it has a value.
  public static let values = FieldPresence(rule: .values)
  /// Every field of the schema exists wherever the record it belongs to does.
  public static let columns = FieldPresence(rule: .columns)

  /// Records that have the paths of `nulls` with a null value in the rows listed (ascending):
  /// each path by its names from the record inwards.
  package static func keys(_ nulls: [[String]: [Int]]) -> FieldPresence {
    FieldPresence(rule: .listed(nulls))
  }

  /// Adds the paths of `nulls`, with rows moved on by `offset` (rows after every row listed
  /// here): the presence of two tables' rows one after the other. In place: a load adds a
  /// block's rows at a time.
  package mutating func append(_ nulls: [[String]: [Int]], offset: Int) {
    guard !nulls.isEmpty else { return }
    var listed: [[String]: [Int]] = [:]
    if case .listed(let own) = rule { listed = own }
    rule = .values  // (so that `listed` is the only reference, and grows in place)
    for (path, rows) in nulls { listed[path, default: []] += rows.lazy.map { $0 + offset } }
    rule = .listed(listed)
  }

  /// Whether any record may have a field with a null value (so that `exists` asks).
  package var asksRecords: Bool {
    switch rule {
    case .values: false
    case .columns: true
    case .listed(let nulls): !nulls.isEmpty
    }
  }

  /// The test of whether row `row` of `table` has `field` with a null value; nil when no row
  /// has it (then a field exists where it has a value).
  func test(_ field: FieldRef, in table: ColumnTable) -> (@Sendable (Int) -> Bool)? {
    guard field.steps.count == field.path.components.count,
      !field.steps.contains(where: \.throughList)
    else { return nil }
    switch rule {
    case .values:
      return nil
    case .columns:
      guard let has = FieldPresence.column(field) else { return nil }
      let (slot, count) = (field.slot, table.count)
      // (A row outside the table is a record of nulls, which has no field.)
      return { row in row >= 0 && row < count && has(table.value(row: row, slot: slot)) }
    case .listed(let nulls):
      guard let rows = nulls[field.path.components.map(\.text)], !rows.isEmpty else {
        return nil
      }
      return { row in FieldPresence.contains(rows, row) }
    }
  }

  /// Under ``columns``: whether a record whose top-level field `field.slot` holds `top` has
  /// `field` (every field of a record that is there). Nil for a path through a list, or
  /// through a field with no values.
  package static func column(_ field: FieldRef) -> (@Sendable (Value) -> Bool)? {
    guard field.steps.count == field.path.components.count,
      !field.steps.contains(where: \.throughList)
    else { return nil }
    guard field.steps.count > 1 else { return { _ in true } }
    let parent = field.steps.dropFirst().dropLast()
    return { top in
      if case .record = Compiler<Int>.walk(top, parent) { return true }
      return false
    }
  }

  /// Under ``columns``: whether a record of `schema` whose values are `record` has `path`
  /// (for the reference evaluator, which takes paths as written).
  public static func columns(_ schema: Schema, _ record: [Value], has path: FieldPath) -> Bool {
    guard case .success(let field) = schema.resolve(path), let has = column(field) else {
      return false
    }
    return has(field.slot < record.count ? record[field.slot] : .null)
  }

  /// Whether `rows` (ascending) holds `row`.
  static func contains(_ rows: [Int], _ row: Int) -> Bool {
    let index = rows.position(of: row)
    return index < rows.count && rows[index] == row
  }
}
