import FilterDSL

/// Values written for people and for other programs: facet counts, computed results.
package enum ValueText {
  /// The value as a table or CSV cell shows it: text unquoted, null empty, dates in ISO 8601,
  /// lists and records as compact JSON.
  package static func plain(_ value: Value) -> String {
    switch value {
    case .null: ""
    case .string(let text): text
    default: json(value)
    }
  }

  /// The value as JSON: dates, times and durations as strings.
  package static func json(_ value: Value) -> String {
    var out: [UInt8] = []
    appendJSON(value, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends the value as JSON. Iterative, so any nesting is safe.
  package static func appendJSON(_ value: Value, to out: inout [UInt8]) {
    enum Step {
      case value(Value)
      case text(String)
    }
    var pending: [Step] = [.value(value)]
    while let step = pending.popLast() {
      switch step {
      case .text(let text): out.append(contentsOf: text.utf8)
      case .value(let value):
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d):
          // JSON has no infinity: `1e999` is read back as one (by flt, Python, JavaScript);
          // NaN, which is no number, is null.
          let text = d.isFinite ? String(d) : d.isNaN ? "null" : d < 0 ? "-1e999" : "1e999"
          out.append(contentsOf: text.utf8)
        case .decimal(let d): out.append(contentsOf: d.description.utf8)
        case .string(let s): JSONText.appendQuoted(s.utf8, to: &out)
        case .date(let d): JSONText.appendQuoted(d.description.utf8, to: &out)
        case .dateTime(let t): JSONText.appendQuoted(t.description.utf8, to: &out)
        case .time(let t): JSONText.appendQuoted(t.description.utf8, to: &out)
        case .duration(let span): JSONText.appendQuoted(span.description.utf8, to: &out)
        case .list(let items), .record(let items):
          pending.append(.text("]"))
          for (i, item) in items.enumerated().reversed() {
            pending.append(.value(item))
            if i > 0 { pending.append(.text(",")) }
          }
          out.append(0x5B)
        case .object(let object):
          pending.append(.text("}"))
          for (i, (key, item)) in zip(object.keys, object.values).enumerated().reversed() {
            pending.append(.value(item))
            var keyText: [UInt8] = i > 0 ? [0x2C] : []
            JSONText.appendQuoted(key.utf8, to: &keyText)
            keyText.append(0x3A)
            pending.append(.text(String(decoding: keyText, as: UTF8.self)))
          }
          out.append(0x7B)
        }
      }
    }
  }

  /// Whether a table aligns the value to the right.
  package static func isNumber(_ value: Value) -> Bool {
    switch value {
    case .int, .double, .decimal: true
    default: false
    }
  }
}
