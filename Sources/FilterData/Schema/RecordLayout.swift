import FilterDSL

/// How a reader fills a record of a schema: the field names as bytes (to match keys without
/// making strings), their types, the layouts of nested records, and which fields to decode at
/// all. Fields no filter or sort key uses are checked but not decoded.
final class RecordLayout {
  let schema: Schema
  let names: [[UInt8]]
  let types: [ValueType]
  /// For a nested record field, or a list of records, the layout of those records.
  let nested: [RecordLayout?]
  /// Whether to decode each field; the others stay null.
  var needed: [Bool]
  /// For each key position, the slot the key at that position had last time: records
  /// usually list their keys in the same order, so one comparison finds the slot.
  private var lastSlot: [Int] = []
  /// The dotted path of these records' fields, for messages: `camera.` for a nested one.
  let prefix: String
  /// Where values that do not fit their field's type are reported.
  let misfits: MisfitLog

  init(_ schema: Schema, prefix: String = "", misfits: MisfitLog) {
    self.schema = schema
    names = schema.fields.map { Array($0.name.utf8) }
    types = schema.fields.map(\.type)
    nested = schema.fields.map { field in
      switch field.type {
      case .record(let inner), .list(.record(let inner)):
        RecordLayout(inner, prefix: prefix + field.name + ".", misfits: misfits)
      default: nil
      }
    }
    needed = Array(repeating: true, count: schema.fields.count)
    self.prefix = prefix
    self.misfits = misfits
  }

  /// Decodes only the top-level fields called `fields` (all of a nested record's fields).
  func decodeOnly(_ fields: Set<String>) {
    needed = schema.fields.map { fields.contains($0.name) }
  }

  /// The slot of the key in `bytes[start..<end]` found at `position` in its record.
  func slot(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, position: Int) -> Int? {
    let key = UnsafeBufferPointer(rebasing: bytes[start..<end])
    if position < lastSlot.count {
      let guess = lastSlot[position]
      if guess < names.count && names[guess].elementsEqual(key) { return guess }
    }
    guard let slot = names.firstIndex(where: { $0.elementsEqual(key) }) else { return nil }
    while lastSlot.count <= position { lastSlot.append(0) }
    lastSlot[position] = slot
    return slot
  }

  /// The slot of a key that had escapes, given decoded.
  func slot(decoded key: [UInt8]) -> Int? {
    names.firstIndex(of: key)
  }
}

/// Values whose type did not match the type inferred for their field: the first one of each
/// field, with where it was, so the reader can warn once per field.
final class MisfitLog {
  struct Misfit {
    var field: String
    var expected: ValueType
    var found: String
    /// The byte offset in the buffer being read, its line number, and the offset of the start
    /// of its line.
    var offset: Int
    var line: Int
    var lineStart: Int
  }

  private var reported: Set<String> = []
  /// The line number at which the record being read starts (set by the reader); a misfit's
  /// line is this plus the newlines the scanner passed within the record.
  var line = 1
  /// The misfits not yet turned into warnings.
  var pending: [Misfit] = []

  func report(
    _ field: String, expected: ValueType, found: String, offset: Int, newlines: Int,
    lineStart: Int
  ) {
    guard reported.insert(field).inserted else { return }
    pending.append(
      Misfit(
        field: field, expected: expected, found: found, offset: offset, line: line + newlines,
        lineStart: lineStart))
  }
}
