import FilterDSL

/// Which keys a JSON record has, for `exists`: a key present with `null` exists, a key the
/// object lacks does not (see `FieldPresence`). Paths go through objects only.
enum JSONPresence {
  /// Whether the JSON object `text` has the path `names` (objects within objects; when a key
  /// is repeated, its last value counts, as the reader keeps the last).
  static func has(_ text: ArraySlice<UInt8>, _ names: [String]) -> Bool {
    text.withUnsafeBufferPointer { bytes in
      var scanner = JSONScanner(bytes, from: 0, to: bytes.count)
      return (try? scanner.has(names[...], depth: 0)) ?? false
    }
  }

  /// The paths under `prefix` whose value is null in `values` (a record of `schema`) though
  /// the object at `scanner`'s cursor has their key: the keys present with null (or with text
  /// read as null) in a nested record just read. Moves past the object.
  static func nullPaths(
    _ scanner: inout JSONScanner, _ values: [Value], _ schema: Schema, prefix: [String],
    depth: Int, into paths: inout [[String]]
  ) throws(DataProblem) {
    scanner.skipSpace()
    guard scanner.peek == 0x7B else { return try scanner.skipValue(depth: depth) }
    try scanner.container(depth: depth, close: 0x7D) {
      (scanner: inout JSONScanner) throws(DataProblem) in
      scanner.skipSpace()
      let key = try scanner.string()
      try scanner.expect(0x3A, "':' after the key")
      guard
        let slot = schema.fields.lastIndex(where: { $0.name.utf8.elementsEqual(key.utf8) }),
        slot < values.count
      else { return try scanner.skipValue(depth: depth + 1) }
      switch values[slot] {
      case .null:
        paths.append(prefix + [key])
        try scanner.skipValue(depth: depth + 1)
      case .record(let inner) where inner.contains(where: Value.holdsNull):
        guard case .record(let nested) = schema.fields[slot].type else {
          return try scanner.skipValue(depth: depth + 1)
        }
        try nullPaths(
          &scanner, inner, nested, prefix: prefix + [key], depth: depth + 1, into: &paths)
      default:
        try scanner.skipValue(depth: depth + 1)
      }
    }
  }
}

extension JSONPresence {
  /// Whether the JSON value `bytes[start..<end]` (scanned, so well formed) may have a key
  /// present with null: it has a `null`, or a text that is not a key (which may read as null,
  /// as `"NA"` does where numbers belong). A record that lacks keys holds null for them too;
  /// this tells the usual such record (`{"megapixels": 12}`) from one that needs
  /// ``nullPaths(_:_:_:prefix:depth:into:)``'s walk, without making a string of each key.
  static func mayHaveNull(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int)
    -> Bool
  {
    var index = start
    while index < end {
      let byte = bytes[index]
      index += 1
      // Outside texts, only `null` has an n.
      if byte == UInt8(ascii: "n") { return true }
      guard byte == 0x22 else { continue }
      while index < end, bytes[index] != 0x22 { index += bytes[index] == 0x5C ? 2 : 1 }
      index += 1
      while index < end,
        bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A
          || bytes[index] == 0x0D
      {
        index += 1
      }
      // A text not followed by ':' is a value.
      guard index < end, bytes[index] == 0x3A else { return true }
    }
    return false
  }
}

extension Value {
  /// Whether this is null, or a record with a null field at some depth (not in a list).
  static func holdsNull(_ value: Value) -> Bool {
    switch value {
    case .null: true
    case .record(let inner): inner.contains(where: holdsNull)
    default: false
    }
  }
}

extension JSONScanner {
  /// Whether the value at the cursor, an object, has the path `names`; moves past it.
  fileprivate mutating func has(_ names: ArraySlice<String>, depth: Int) throws(DataProblem)
    -> Bool
  {
    guard let name = names.first else {
      try skipValue(depth: depth)
      return true
    }
    skipSpace()
    guard peek == 0x7B else {
      try skipValue(depth: depth)
      return false
    }
    var found = false
    try container(depth: depth, close: 0x7D) { (scanner: inout JSONScanner) throws(DataProblem) in
      scanner.skipSpace()
      let key = try scanner.string()
      try scanner.expect(0x3A, "':' after the key")
      if key.utf8.elementsEqual(name.utf8) {
        found = try scanner.has(names.dropFirst(), depth: depth + 1)
      } else {
        try scanner.skipValue(depth: depth + 1)
      }
    }
    return found
  }
}
