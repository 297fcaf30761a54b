/// How filters read records of type `Root`: the fields they may use, each with its type and a
/// function that reads it. An allow-list: a field not declared here cannot be reached.
///
/// ```swift
/// let phones = RecordType<Phone>([
///   .string("model") { $0.model },
///   .int("price") { $0.price },
///   .double("screenSize") { $0.screenSize },
///   .string("color", knownValues: ["Midnight", "Starlight"]) { $0.color },
/// ])
/// ```
///
/// Readers are closures, or key paths: a key path to a stored property of a struct
/// (`.int("price", \.price)`) is read in place, at the property's offset in the record, which
/// is the fastest form for batches (`filter.filter(records)`); any other key path is applied
/// on every read, several times slower than a closure. A reader returns nil when the record
/// has no value.
public struct RecordType<Root>: Sendable {
  /// The fields as the checker sees them.
  public private(set) var schema: Schema
  /// The fields' readers as the compiler calls them (see ``FieldAccessor/operand``).
  let operands: [FieldOperand<Root>]
  let selectors: [FieldSelector<Root>?]
  /// Appends the records at the given indices, in order.
  let gather: @Sendable ([Root], [Int], inout [Root]) -> Void
  /// For records held by column (``ColumnTable``): how filters and facets read whole
  /// columns. Nil for records read one by one.
  let columns: ColumnAccess<Root>?
  /// For each field `exists` asks of, the test of whether a record whose value there is null
  /// has the field all the same (a JSON key present with `null`); nil (or a nil test) when
  /// a field exists where it has a value. See ``FieldPresence``.
  private(set) var presence: (@Sendable (FieldRef) -> (@Sendable (Root) -> Bool)?)? = nil

  /// A record type of `fields`, in order.
  @inlinable
  public init(_ fields: [FieldAccessor<Root>]) {
    // Inlinable, like the factories: the gather loop is then specialized for `Root` where the
    // record type is declared, and copies records without generic overhead.
    self.init(
      fields: fields,
      gather: { records, indices, gathered in
        gathered.reserveRoom(for: indices.count)
        records.withUnsafeBufferPointer { buffer in
          for index in indices where index >= 0 && index < buffer.count {
            gathered.append(buffer[index])
          }
        }
      })
  }

  @usableFromInline
  init(
    fields: [FieldAccessor<Root>], gather: @escaping @Sendable ([Root], [Int], inout [Root]) -> Void
  ) {
    self.init(fields: fields, gather: gather, columns: nil)
  }

  init(
    fields: [FieldAccessor<Root>],
    presence: (@Sendable (FieldRef) -> (@Sendable (Root) -> Bool)?)? = nil,
    gather: @escaping @Sendable ([Root], [Int], inout [Root]) -> Void,
    columns: ColumnAccess<Root>?
  ) {
    schema = Schema(fields.map(\.field))
    operands = fields.map { $0.operand ?? .general($0.reader) }
    selectors = fields.map(\.selector)
    self.gather = gather
    self.columns = columns
    self.presence = presence
  }

  /// This record type, whose records may have a field though its value there is null (as a
  /// JSON object has a key whose value is `null`): `exists field` is true for a record when
  /// its value is not null, or, when it is, when the test `presence(field)` makes says so.
  /// `presence` is called once per field as a filter is compiled; nil means that a record has
  /// the field only where it has a value (the default).
  ///
  /// ```swift
  /// // Records as dictionaries: a key present with nil exists.
  /// let withKeys = entries.withPresence { field in
  ///   let name = field.path.components[0].text
  ///   return { entry in entry.keys.contains(name) }
  /// }
  /// ```
  public func withPresence(
    _ presence: @escaping @Sendable (FieldRef) -> (@Sendable (Root) -> Bool)?
  ) -> RecordType {
    var copy = self
    copy.presence = presence
    return copy
  }

  /// This record type with no ``Schema/Field/knownValues`` at any depth: the checker then
  /// suggests no values, so its messages quote nothing from the records (for filters from
  /// untrusted users, when the known values came from the data itself).
  public func withoutKnownValues() -> RecordType {
    var copy = self
    copy.schema = schema.withoutKnownValues()
    return copy
  }
}

extension Schema {
  /// This schema with no ``Field/knownValues`` at any depth.
  func withoutKnownValues() -> Schema {
    Schema(
      fields.map { field in
        var field = field
        field.knownValues = nil
        field.type = field.type.withoutKnownValues()
        return field
      })
  }
}

extension ValueType {
  fileprivate func withoutKnownValues() -> ValueType {
    switch self {
    case .record(let schema): .record(schema.withoutKnownValues())
    case .list(let element): .list(element.withoutKnownValues())
    default: self
    }
  }
}

/// One field of a ``RecordType``: its name, type, and reader.
public struct FieldAccessor<Root>: Sendable {
  let field: Schema.Field
  let reader: FieldReader<Root>
  /// The batch form of the reader (see ``FieldSelector``): only for a stored property declared
  /// by key path, read in place. (A batch loop over a closure copied each record it passed,
  /// once per test: slower than testing record by record, which copies it once.)
  let selector: FieldSelector<Root>?
  /// The reader in the form compiled filters call, record by record, for the types whose
  /// factories are inlinable: made where the record type is declared, one closure that reads
  /// the field in place. Nil for the others, which the compiler calls through ``reader`` (a
  /// call more per read).
  let operand: FieldOperand<Root>?

  @usableFromInline
  init(
    field: Schema.Field, reader: FieldReader<Root>, selector: FieldSelector<Root>? = nil,
    operand: FieldOperand<Root>? = nil
  ) {
    self.field = field
    self.reader = reader
    self.selector = selector
    self.operand = operand
  }

  /// This accessor with its field's hints for messages taken from `field` (its known values,
  /// numbers written as text, texts read as null), when `field` has its name and type.
  package func describing(_ field: Schema.Field) -> Self {
    guard field.name == self.field.name, field.type == self.field.type else { return self }
    return Self(field: field, reader: reader, selector: selector, operand: operand)
  }

  // The int, double and string factories are inlinable so that they are specialized where a
  // record type is declared, for its concrete `Root`: their operands then call the reader
  // with no generic entry point in between.

  /// An integer field called `name`, read by `read` (nil for no value); `optional` when some
  /// records have none.
  @inlinable
  public static func int(
    _ name: String, optional: Bool = false, _ read: @escaping @Sendable (Root) -> Int?
  ) -> Self {
    Self(
      field: .init(name, .int, optional: optional), reader: .int { read($0).map(Int64.init) },
      operand: .int { r, _ in read(r).map(Int64.init) })
  }

  /// A double field called `name`, read by `read` (nil for no value); `optional` when some records
  /// have none.
  @inlinable
  public static func double(
    _ name: String, optional: Bool = false, _ read: @escaping @Sendable (Root) -> Double?
  ) -> Self {
    Self(
      field: .init(name, .double, optional: optional), reader: .double(read),
      operand: .double { r, _ in read(r) })
  }

  /// A text field called `name`, read by `read` (nil for no value); `knownValues` lists the values
  /// it takes, if it has a small set of them (filters comparing with another value get a warning).
  @inlinable
  public static func string(
    _ name: String, optional: Bool = false, knownValues: [String]? = nil,
    _ read: @escaping @Sendable (Root) -> String?
  ) -> Self {
    Self(
      field: .init(name, .string, optional: optional, knownValues: knownValues),
      reader: .string(read),
      operand: .string { r, _ in read(r) })
  }

  /// A true-or-false field called `name`, read by `read` (nil for no value).
  public static func bool(
    _ name: String, optional: Bool = false, _ read: @escaping @Sendable (Root) -> Bool?
  ) -> Self {
    Self(field: .init(name, .bool, optional: optional), reader: .bool(read))
  }

  /// A calendar-date field called `name`, read by `read` (nil for no value).
  public static func date(
    _ name: String, optional: Bool = false, _ read: @escaping @Sendable (Root) -> CalendarDate?
  ) -> Self {
    Self(field: .init(name, .date, optional: optional), reader: .date(read))
  }

  /// A point-in-time field called `name`, read by `read` (nil for no value).
  public static func dateTime(
    _ name: String, optional: Bool = false, _ read: @escaping @Sendable (Root) -> Instant?
  ) -> Self {
    Self(field: .init(name, .dateTime, optional: optional), reader: .dateTime(read))
  }

  /// A time-of-day field called `name`, read by `read` (nil for no value).
  public static func time(
    _ name: String, optional: Bool = false, _ read: @escaping @Sendable (Root) -> TimeOfDay?
  ) -> Self {
    Self(field: .init(name, .time, optional: optional), reader: .time(read))
  }

  /// A length-of-time field called `name`, read by `read` (nil for no value).
  public static func duration(
    _ name: String, optional: Bool = false, _ read: @escaping @Sendable (Root) -> TimeSpan?
  ) -> Self {
    Self(field: .init(name, .duration, optional: optional), reader: .duration(read))
  }

  /// An exact decimal field called `name`, read by `read` (nil for no value): money, as
  /// SQL's `DECIMAL` (`.decimal("price") { ExactDecimal("\($0.price)") }` from Foundation's
  /// `Decimal`).
  public static func decimal(
    _ name: String, optional: Bool = false, _ read: @escaping @Sendable (Root) -> ExactDecimal?
  ) -> Self {
    Self(
      field: .init(name, .decimal, optional: optional),
      reader: .value { read($0).map(Value.decimal) ?? .null })
  }

  /// A field of any type read as a ``Value``: lists, nested records, or values whose Swift type
  /// is not one of the above.
  public static func value(
    _ name: String, _ type: ValueType, optional: Bool = false,
    _ read: @escaping @Sendable (Root) -> Value
  ) -> Self {
    Self(field: .init(name, type, optional: optional), reader: .value(read))
  }
}

/// How records held by column are read in bulk.
struct ColumnAccess<Root>: Sendable {
  /// Compiles a whole bound filter to one selection over the columns.
  let vectorize: @Sendable (BoundExpr) -> Selector<Root>
  /// For a field whose column is coded: counts its values over the records at given
  /// positions, code by code (facets).
  let countCodes: @Sendable (FieldRef) -> (@Sendable ([Root], [Int]) -> ValueCounts)?
  /// For a top-level field: its values for given records, read straight from its column (a
  /// sort key; the row engine reads them one record at a time through the field's reader).
  let fieldValues: @Sendable (FieldRef) -> (@Sendable ([Root]) -> [Value])?
  /// For a top-level field held in a form that orders without its values: its sort keys for
  /// given records (nil from the function when a value cannot be ordered so).
  let sortKeys: @Sendable (FieldRef) -> (@Sendable ([Root]) -> SortKeyColumn?)?
  /// For a top-level field that ``sortKeys`` orders: given a record, a narrowing of a
  /// selection to the records that come before it in an order by the field (descending or
  /// not, nulls first or not), or tie with it too (see `ColumnTable.sortBound`).
  let sortBound:
    @Sendable (_ field: FieldRef, _ descending: Bool, _ nullsFirst: Bool, _ ties: Bool) -> (
      @Sendable (Root) -> Narrowing<Root>?
    )?
  /// For a top-level field whose column is coded: its codes and distinct values (facets
  /// count several such fields in one pass over the codes).
  let codedColumn: @Sendable (FieldRef) -> CodedColumn<Root>?
  /// For a top-level field held as integers or decimals: their gathering (stats add them up
  /// without making a value of each).
  let numbers: @Sendable (FieldRef) -> NumberColumn<Root>?
}

/// A column of integers or decimals as stats read it: each picked record's value, written to
/// `values` (0 where it is null), and whether it has one, to `present`, from position 0 of
/// the two buffers on.
enum NumberColumn<Root>: Sendable {
  case ints(
    @Sendable (RecordPick<Root>, UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Bool>) -> Void)
  case doubles(
    @Sendable (RecordPick<Root>, UnsafeMutablePointer<Double>, UnsafeMutablePointer<Bool>) -> Void
  )
}

/// Some records of an array, without copying them: those at a range of its indices, or at a
/// range of a list of positions into it (the matches of a filter). Read where the record type
/// is known (a ``ColumnTable``'s rows), so that no generic copy of a record is made.
struct RecordPick<Root> {
  /// The array.
  let records: [Root]
  /// Positions into `records`, or nil: `range` is then of `records`' indices.
  let positions: [Int]?
  /// The range picked, of `positions` or of `records`.
  let range: Range<Int>

  /// How many records are picked.
  var count: Int { range.count }

}

/// A coded column as facet counting reads it.
struct CodedColumn<Root> {
  /// The code of each of the records given (0, null, for a record outside the column). (A
  /// slice: facets read a chunk of their candidates at a time, without copying it.)
  let codes: @Sendable (ArraySlice<Root>) -> [UInt32]
  /// Writes the code of each record picked, from position 0 on (stats read a chunk of the
  /// matches at a time, into a buffer of their own).
  let pickedCodes: @Sendable (RecordPick<Root>, UnsafeMutablePointer<UInt32>) -> Void
  /// For each code, the first record holding it (for null, a record whose fields are all
  /// null): a test that reads only this field is evaluated once per code, on it.
  let firstRecords: [Root]
  /// For each code, its value.
  let values: [Value]
}

/// The batch form of a field reader: keeps the indices in a selection whose records have a
/// value for the field that passes a test. Made by the inlinable key-path factories above
/// (``StoredField``), so it is specialized for the embedder's record type.
@usableFromInline
enum FieldSelector<Root>: Sendable {
  case int(@Sendable ([Root], inout [Int], (Int64) -> Bool) -> Void)
  case double(@Sendable ([Root], inout [Int], (Double) -> Bool) -> Void)
  case string(@Sendable ([Root], inout [Int], (String) -> Bool) -> Void)
}

/// A field's reader in the form a compiled filter calls, record by record (see
/// ``FieldAccessor/operand``): with the evaluation's state, as every compiled closure is.
@usableFromInline
enum FieldOperand<Root>: Sendable {
  case int(@Sendable (Root, inout EvaluationState) -> Int64?)
  case double(@Sendable (Root, inout EvaluationState) -> Double?)
  case string(@Sendable (Root, inout EvaluationState) -> String?)
  /// A reader of another type, or made without an inlinable factory: the compiler wraps it.
  case general(FieldReader<Root>)
}

/// A typed field reader.
@usableFromInline
enum FieldReader<Root>: Sendable {
  case int(@Sendable (Root) -> Int64?)
  case double(@Sendable (Root) -> Double?)
  case string(@Sendable (Root) -> String?)
  case bool(@Sendable (Root) -> Bool?)
  case date(@Sendable (Root) -> CalendarDate?)
  case dateTime(@Sendable (Root) -> Instant?)
  case time(@Sendable (Root) -> TimeOfDay?)
  case duration(@Sendable (Root) -> TimeSpan?)
  case value(@Sendable (Root) -> Value)
}

extension RecordType where Root == [Value] {
  /// Dynamic records: values in the order of `schema`'s fields, as data files are read.
  /// Each field is read by its slot, found once at compile time.
  public static func dynamic(_ schema: Schema) -> RecordType<[Value]> {
    RecordType(
      schema.fields.enumerated().map { slot, field in
        let reader = DynamicReaders.reader(slot: slot, type: field.type)
        return FieldAccessor(
          field: field, reader: reader)
      })
  }
}

extension RecordType where Root == [Value] {
  /// Dynamic records whose fields exist as `presence` says (see ``FieldPresence``): with
  /// ``FieldPresence/columns``, as a table's rows, every field of the schema exists where the
  /// record holding it does (`exists` then asks what SQL's tables answer).
  public static func dynamic(_ schema: Schema, presence: FieldPresence) -> RecordType<[Value]> {
    let type = dynamic(schema)
    guard case .columns = presence.rule else { return type }
    return type.withPresence { field in
      guard let has = FieldPresence.column(field) else { return nil }
      let slot = field.slot
      return { record in has(slot < record.count ? record[slot] : .null) }
    }
  }
}

enum DynamicReaders {
  static func reader(slot: Int, type: ValueType) -> FieldReader<[Value]> {
    switch type {
    case .int:
      .int { slot < $0.count ? int($0[slot]) : nil }
    case .double:
      .double { record in
        guard slot < record.count else { return nil }
        switch record[slot] {
        case .double(let d): return d
        case .int(let i): return Double(i)
        default: return nil
        }
      }
    case .string:
      .string { record in
        guard slot < record.count, case .string(let s) = record[slot] else { return nil }
        return s
      }
    case .bool:
      .bool { record in
        guard slot < record.count, case .bool(let b) = record[slot] else { return nil }
        return b
      }
    default:
      .value { slot < $0.count ? $0[slot] : .null }
    }
  }

  private static func int(_ value: Value) -> Int64? {
    if case .int(let i) = value { return i }
    return nil
  }
}

extension Array {
  /// Room for `count` more elements, growing geometrically: matches are gathered batch by
  /// batch, and reserving the exact count each time would copy the array each time.
  @inlinable mutating func reserveRoom(for count: Int) {
    let needed = self.count + count
    if needed > capacity { reserveCapacity(Swift.max(needed, 2 * capacity)) }
  }
}
