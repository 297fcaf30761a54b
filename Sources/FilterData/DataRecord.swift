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

  /// A record of `values` whose text is a JSON object.
  public init(values: [Value], text: ArraySlice<UInt8>) {
    self.init(values: values, text: text, format: .json)
  }

  init(values: [Value], text: ArraySlice<UInt8>, format: RecordFields) {
    self.values = values
    self.text = text
    self.format = format
  }

  /// This record with its text copied out of the block it was read in, so that keeping it
  /// does not keep the whole block in memory.
  public var detached: DataRecord {
    DataRecord(values: values, text: ArraySlice(Array(text)), format: format)
  }

  /// How filters read data records of `schema`: each field by its slot, typed.
  public static func recordType(_ schema: Schema) -> RecordType<DataRecord> {
    RecordType(
      schema.fields.enumerated().map { slot, field in
        accessor(field, slot: slot)
      })
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
