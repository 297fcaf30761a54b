/// A FlatBuffers object to write (Arrow's metadata: a schema, a batch's header, a footer): a
/// table of numbered fields, text, a vector of tables, or a vector of structs.
indirect enum FlatObject {
  /// A field of a table: a little-endian scalar, or an object it points at.
  enum Field {
    case scalar([UInt8])
    case object(FlatObject)

    static func int8(_ value: UInt8) -> Field { .scalar([value]) }
    static func int16(_ value: Int16) -> Field { .scalar([UInt8](littleEndian: value)) }
    static func int32(_ value: Int32) -> Field { .scalar([UInt8](littleEndian: value)) }
    static func int64(_ value: Int64) -> Field { .scalar([UInt8](littleEndian: value)) }
    static func bool(_ value: Bool) -> Field { .scalar([value ? 1 : 0]) }
  }

  /// A table: its fields by number (a number left out is the field's default).
  case table([Int: Field])
  case string(String)
  case tables([FlatObject])
  /// Structs of 8-byte integers, `words` each.
  case structs([[Int64]])

  /// The object as a FlatBuffer: the root's offset, then each object before those it points
  /// at (so every offset points forward, as FlatBuffers' unsigned offsets do), each value at a
  /// position aligned to its size, as verifying readers (Arrow's C++ library) require.
  func serialized() -> [UInt8] {
    var writer = Writer()
    writer.bytes = [0, 0, 0, 0]
    let root = writer.place(self)
    writer.patch(0, to: root)
    writer.align(8)
    return writer.bytes
  }

  private struct Writer {
    var bytes: [UInt8] = []

    mutating func align(_ size: Int, offset: Int = 0) {
      while (bytes.count + offset) % size != 0 { bytes.append(0) }
    }

    /// Writes at `position` (an unsigned offset field) the distance to `target`.
    mutating func patch(_ position: Int, to target: Int) {
      let distance = UInt32(target - position)
      for index in 0..<4 {
        bytes[position + index] = UInt8(truncatingIfNeeded: distance >> (8 * index))
      }
    }

    /// Writes `object` and what it points at; where it starts (for a table, its offset to
    /// its vtable; for a vector or text, its length).
    mutating func place(_ object: FlatObject) -> Int {
      switch object {
      case .string(let text):
        align(4)
        let start = bytes.count
        let utf8 = Array(text.utf8)
        bytes.appendLittleEndian(UInt32(utf8.count))
        bytes += utf8 + [0]
        return start
      case .structs(let structs):
        // The elements (8-byte integers) start 8-aligned, after the 4-byte length.
        align(8, offset: 4)
        let start = bytes.count
        bytes.appendLittleEndian(UInt32(structs.count))
        for words in structs { for word in words { bytes.appendLittleEndian(word) } }
        return start
      case .tables(let tables):
        align(4)
        let start = bytes.count
        bytes.appendLittleEndian(UInt32(tables.count))
        let slots = tables.indices.map { start + 4 + 4 * $0 }
        bytes += [UInt8](repeating: 0, count: 4 * tables.count)
        for (slot, table) in zip(slots, tables) { patch(slot, to: place(table)) }
        return start
      case .table(let fields):
        return table(fields)
      }
    }

    private mutating func table(_ fields: [Int: Field]) -> Int {
      // The table's inline part: its offset to the vtable, then the fields, largest first,
      // each aligned to its size (the table itself starts 8-aligned).
      let ordered = fields.sorted { a, b in
        let (x, y) = (a.value.size, b.value.size)
        return x != y ? x > y : a.key < b.key
      }
      var offsets: [Int: Int] = [:]
      var size = 4
      for (number, field) in ordered {
        let width = field.size
        while size % width != 0 { size += 1 }
        offsets[number] = size
        size += width
      }
      let count = (fields.keys.max() ?? -1) + 1
      let vtable =
        [UInt16(4 + 2 * count), UInt16(size)]
        + (0..<count).map { UInt16(offsets[$0] ?? 0) }
      align(2)
      let vtableStart = bytes.count
      for entry in vtable { bytes.appendLittleEndian(entry) }
      align(8)
      let start = bytes.count
      bytes.appendLittleEndian(Int32(start - vtableStart))
      bytes += [UInt8](repeating: 0, count: size - 4)
      var pointing: [(Int, FlatObject)] = []
      for (number, field) in ordered {
        let at = start + (offsets[number] ?? 0)
        switch field {
        case .scalar(let value):
          for (index, byte) in value.enumerated() { bytes[at + index] = byte }
        case .object(let object):
          pointing.append((at, object))
        }
      }
      for (at, object) in pointing { patch(at, to: place(object)) }
      return start
    }
  }
}

extension FlatObject.Field {
  /// The bytes the field takes in its table.
  var size: Int {
    switch self {
    case .scalar(let bytes): bytes.count
    case .object: 4
    }
  }
}
