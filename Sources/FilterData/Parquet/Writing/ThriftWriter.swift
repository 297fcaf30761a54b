/// A writer of Thrift's compact protocol, in which Parquet writes its metadata (the footer,
/// page headers): the counterpart of ``ThriftReader``. Fields are written in increasing order
/// of their ids within a struct, each header the difference from the last id where it fits in
/// four bits.
struct ThriftWriter {
  typealias FieldType = ThriftReader.FieldType

  private(set) var bytes: [UInt8] = []
  /// The last field id written in each struct open, innermost last.
  private var lastField: [Int16] = [0]

  /// An unsigned varint.
  mutating func varint(_ value: UInt64) { PackedBits.appendVarint(value, to: &bytes) }

  /// A signed number, zigzag-encoded.
  private mutating func zigzag(_ value: Int64) {
    varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
  }

  private mutating func header(_ id: Int16, _ type: FieldType) {
    let last = lastField[lastField.count - 1]
    if id > last && id - last <= 15 {
      bytes.append(UInt8(id - last) << 4 | type.rawValue)
    } else {
      bytes.append(type.rawValue)
      zigzag(Int64(id))
    }
    lastField[lastField.count - 1] = id
  }

  mutating func i32(_ id: Int16, _ value: Int32) {
    header(id, .i32)
    zigzag(Int64(value))
  }

  mutating func i64(_ id: Int16, _ value: Int64) {
    header(id, .i64)
    zigzag(value)
  }

  mutating func byte(_ id: Int16, _ value: Int8) {
    header(id, .byte)
    bytes.append(UInt8(bitPattern: value))
  }

  mutating func bool(_ id: Int16, _ value: Bool) {
    header(id, value ? .boolTrue : .boolFalse)
  }

  mutating func binary(_ id: Int16, _ value: [UInt8]) {
    header(id, .binary)
    varint(UInt64(value.count))
    bytes += value
  }

  mutating func string(_ id: Int16, _ value: String) { binary(id, Array(value.utf8)) }

  /// A struct field: its fields are what `body` writes.
  mutating func structure(_ id: Int16, _ body: (inout ThriftWriter) -> Void) {
    header(id, .structure)
    structure(body)
  }

  /// A struct with no field header (the message itself, or a list's element).
  mutating func structure(_ body: (inout ThriftWriter) -> Void) {
    lastField.append(0)
    body(&self)
    bytes.append(0)
    lastField.removeLast()
  }

  /// A list field of `items`, each a struct `body` writes the fields of.
  mutating func list<T>(_ id: Int16, _ items: [T], _ body: (inout ThriftWriter, T) -> Void) {
    listHeader(id, .structure, items.count)
    for item in items { structure { body(&$0, item) } }
  }

  /// A list field of numbers.
  mutating func list(_ id: Int16, i32 items: [Int32]) {
    listHeader(id, .i32, items.count)
    for item in items { zigzag(Int64(item)) }
  }

  /// A list field of text.
  mutating func list(_ id: Int16, strings items: [String]) {
    listHeader(id, .binary, items.count)
    for item in items {
      varint(UInt64(item.utf8.count))
      bytes += item.utf8
    }
  }

  private mutating func listHeader(_ id: Int16, _ type: FieldType, _ count: Int) {
    header(id, .list)
    if count < 15 {
      bytes.append(UInt8(count) << 4 | type.rawValue)
    } else {
      bytes.append(0xF0 | type.rawValue)
      varint(UInt64(count))
    }
  }
}
