import FilterDSL

/// One JSON text as a value of a known type, and back: how lists and nested records are
/// stored in a database column (records as objects, keyed by their fields' names).
package enum JSONValue {
  /// `text` decoded as a value of `type`; nil when it is not JSON or not of that type.
  package static func decode(_ text: String, as type: ValueType) -> Value? {
    let growth = GrowthLog()
    growth.acceptsNewFields = false
    let layout = RecordLayout(Schema([.init("value", type)]), growth: growth)
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBufferPointer { buffer -> Value? in
      var scanner = JSONScanner(buffer, from: 0, to: buffer.count)
      guard let value = try? scanner.value(layout, 0, depth: 1), growth.pending.isEmpty else {
        return nil
      }
      scanner.skipSpace()
      return scanner.peek == nil ? value : nil
    }
  }

  /// `value`, of `type`, as JSON text: records as objects with their fields' names, dates and
  /// durations as text.
  package static func encode(_ value: Value, as type: ValueType) -> String {
    var out: [UInt8] = []
    append(value, type, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  private static func append(_ value: Value, _ type: ValueType, to out: inout [UInt8]) {
    switch (value, type) {
    case (.list(let items), .list(let element)):
      out.append(0x5B)
      for (i, item) in items.enumerated() {
        if i > 0 { out.append(0x2C) }
        append(item, element, to: &out)
      }
      out.append(0x5D)
    case (.record(let values), .record(let schema)):
      out.append(0x7B)
      for (i, (item, field)) in zip(values, schema.fields).enumerated() {
        if i > 0 { out.append(0x2C) }
        JSONText.appendQuoted(field.name.utf8, to: &out)
        out.append(0x3A)
        append(item, field.type, to: &out)
      }
      out.append(0x7D)
    default:
      ValueText.appendJSON(value, to: &out)
    }
  }
}
