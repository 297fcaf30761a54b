import FilterDSL

/// One record of a data file: its values by slot of the file's schema (fields the query does
/// not use may be left null), and its text exactly as the file had it, for output.
public struct DataRecord: Sendable {
  /// The values, in the order of the schema's fields.
  public var values: [Value]
  /// The record's bytes in the file: a JSON object, or a CSV row without its line break.
  public var text: ArraySlice<UInt8>
  /// How output reads the fields back from ``text``: JSON, or a CSV row under its header.
  let format: RecordFields
  /// Where the record is among its source's records, when the source can hand it over again
  /// by it (``FetchingSource``); nil otherwise.
  public internal(set) var ordinal: Int?

  /// The name of the file the record was read from (`<stdin>` for standard input), or nil.
  public var source: String? { format.source }

  /// A record of `values` whose text is a JSON object.
  public init(values: [Value], text: ArraySlice<UInt8>) {
    self.init(values: values, text: text, format: .json)
  }

  init(values: [Value], text: ArraySlice<UInt8>, format: RecordFields) {
    self.values = values
    self.text = text
    self.format = format
  }

  /// A record of `values` (in the order of `schema`'s fields) that was not read from a file:
  /// its text is made as a JSON object, so that every output format can write it. Nested
  /// records (and lists of them) become objects with their schema's names.
  public init(_ values: [Value], schema: Schema) {
    var text: [UInt8] = []
    DataRecord.appendObject(values, schema, to: &text)
    self.init(values: values, text: text[...], format: .json)
  }

  /// Appends `values` as a JSON object of `schema`'s fields. Recursion follows the schema's
  /// nesting, which is bounded (a schema inferred from data is no deeper than the reader
  /// allows).
  static func appendObject(_ values: [Value], _ schema: Schema, to out: inout [UInt8]) {
    out.append(0x7B)
    for (slot, field) in schema.fields.enumerated() {
      if slot > 0 { out.append(0x2C) }
      JSONText.appendQuoted(field.name.utf8, to: &out)
      out.append(0x3A)
      appendValue(slot < values.count ? values[slot] : .null, field.type, to: &out)
    }
    out.append(0x7D)
  }

  /// Appends `value`, of `type`, as JSON: nested records as objects of their schema's names.
  static func appendValue(_ value: Value, _ type: ValueType, to out: inout [UInt8]) {
    switch (value, type) {
    case (.record(let inner), .record(let schema)):
      appendObject(inner, schema, to: &out)
    case (.list(let items), .list(let element)):
      out.append(0x5B)
      for (i, item) in items.enumerated() {
        if i > 0 { out.append(0x2C) }
        appendValue(item, element, to: &out)
      }
      out.append(0x5D)
    default:
      ValueText.appendJSON(value, to: &out)
    }
  }

  /// This record with its text copied out of the block it was read in, so that keeping it
  /// does not keep the whole block in memory.
  public var detached: DataRecord {
    var copy = DataRecord(values: values, text: ArraySlice(Array(text)), format: format)
    copy.ordinal = ordinal
    return copy
  }

  /// How filters read data records of `schema`: each field by its slot, typed.
  public static func recordType(_ schema: Schema) -> RecordType<DataRecord> {
    RecordType(
      schema.fields.enumerated().map { slot, field in
        accessor(field, slot: slot).describing(field)
      }
    ).withPresence { presence($0) }
  }

  /// Whether a record whose value of `field` is null has the field all the same (`exists`):
  /// a JSON record when its text has the key (with `null`, or text read as null), a CSV row
  /// always (its file has the column; a nested field where its record is there). Records
  /// made from values (a database's rows) have every field their text was made with.
  static func presence(_ field: FieldRef) -> (@Sendable (DataRecord) -> Bool)? {
    guard let column = FieldPresence.column(field) else { return nil }
    let names = field.path.components.map(\.text)
    let slot = field.slot
    return { record in
      guard record.format.header == nil else {
        return column(slot < record.values.count ? record.values[slot] : .null)
      }
      return JSONPresence.has(record.text, names)
    }
  }

  /// How computed values read data records of `schema`: each field's value by its slot,
  /// whatever its type, so that a field that widens later (an integer column that turns out
  /// to hold decimals) is still read (``Projection``, ``StatsSink``).
  public static func valueType(_ schema: Schema) -> RecordType<DataRecord> {
    RecordType(
      schema.fields.enumerated().map { slot, field in
        FieldAccessor<DataRecord>.value(field.name, field.type, optional: field.isOptional) {
          slot < $0.values.count ? $0.values[slot] : .null
        }
      }
    ).withPresence { presence($0) }
  }

  private static func accessor(_ field: Schema.Field, slot: Int) -> FieldAccessor<DataRecord> {
    let name = field.name
    let optional = field.isOptional
    switch field.type {
    case .int:
      return .int(name, optional: optional) { record in
        guard slot < record.values.count, case .int(let i) = record.values[slot] else {
          return nil
        }
        return Int(truncatingIfNeeded: i)
      }
    case .double:
      return .double(name, optional: optional) { record in
        guard slot < record.values.count else { return nil }
        switch record.values[slot] {
        case .double(let d): return d
        case .int(let i): return Double(i)
        default: return nil
        }
      }
    case .string:
      return .string(name, optional: optional, knownValues: field.knownValues) { record in
        guard slot < record.values.count, case .string(let s) = record.values[slot] else {
          return nil
        }
        return s
      }
    case .bool:
      return .bool(name, optional: optional) { record in
        guard slot < record.values.count, case .bool(let b) = record.values[slot] else {
          return nil
        }
        return b
      }
    default:
      return .value(name, field.type, optional: optional) { record in
        slot < record.values.count ? record.values[slot] : .null
      }
    }
  }
}
