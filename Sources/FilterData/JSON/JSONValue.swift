import FilterDSL

/// One JSON text as a value of a known type, and back: how lists and nested records are
/// stored in a database column (records as objects, keyed by their fields' names).
package enum JSONValue {
  /// `text` decoded as a value of `type`; nil when it is not JSON or not of that type.
  package static func decode(_ text: String, as type: ValueType) -> Value? {
    Decoder(type).decode(text)
  }

  /// Decodes JSON texts as values of one type, the layout made once: a column's cells.
  package final class Decoder {
    private let growth = GrowthLog()
    private let layout: RecordLayout

    /// A decoder of values of `type`.
    package init(_ type: ValueType) {
      growth.acceptsNewFields = false
      layout = RecordLayout(Schema([.init("value", type)]), growth: growth)
    }

    /// `text` as a value of the type; nil when it is not JSON or not of that type.
    package func decode(_ text: String) -> Value? {
      // (A space after it: the scanner reads a number that reaches the end of its buffer as
      // one that may go on, `3` as well as a mixed column's number.)
      var text = text + " "
      return text.withUTF8 { buffer -> Value? in
        var scanner = JSONScanner(buffer, from: 0, to: buffer.count)
        guard let value = try? scanner.value(layout, 0, depth: 1), growth.pending.isEmpty else {
          growth.pending.removeAll()
          return nil
        }
        scanner.skipSpace()
        return scanner.peek == nil ? value : nil
      }
    }
  }

  /// `value`, of `type`, as JSON text: records as objects with their fields' names, dates and
  /// durations as text.
  package static func encode(_ value: Value, as type: ValueType) -> String {
    var out: [UInt8] = []
    DataRecord.appendValue(value, type, to: &out)
    return String(decoding: out, as: UTF8.self)
  }
}

extension JSONValue {
  /// The type that holds every one of `texts` (JSON values; nulls aside), as a data file's
  /// field would be typed; nil when one is not JSON.
  package static func inferType(_ texts: [String]) -> ValueType? {
    var tally = TypeTally()
    for text in texts {
      // (A space after it, as ``Decoder/decode(_:)`` adds one.)
      let bytes = Array(text.utf8) + [0x20]
      let ok = bytes.withUnsafeBufferPointer { buffer -> Bool in
        var scanner = JSONScanner(buffer, from: 0, to: buffer.count)
        guard (try? scanner.tally(value: &tally, depth: 1)) != nil else { return false }
        scanner.skipSpace()
        return scanner.peek == nil
      }
      guard ok else { return nil }
    }
    return tally.type
  }
}
