import FilterDSL

/// `--root data.items`: the records of an API response are the list at a path of keys inside
/// the JSON object, not the whole document. The reader steps down to the list before the first
/// record and, after the last, checks that the rest of the document is well formed.
extension JSONScanner {
  /// Moves from the start of the document to just inside the list at `path`.
  mutating func descend(into path: [String]) throws(DataProblem) {
    for (depth, key) in path.enumerated() {
      skipSpace()
      guard peek == 0x7B else {
        throw unexpected("an object with the key '\(key)' (from --root)")
      }
      index += 1
      var first = true
      while true {
        skipSpace()
        if peek == 0x7D {
          throw DataProblem(
            code: .invalidRecord,
            message:
              "no key '\(key)' in the object\(depth == 0 ? "" : " at '\(path[..<depth].joined(separator: "."))'")",
            label: "the object ends here",
            help:
              "--root names the keys from the top of the document down to the list of records, as in --root data.items",
            offset: index)
        }
        if !first { try expect(0x2C, "',' or '}'") }
        first = false
        skipSpace()
        guard peek == 0x22 else { throw unexpected("a key in quotes") }
        let name = try string()
        try expect(0x3A, "':' after the key")
        skipSpace()
        if name == key { break }
        try skipValue(depth: depth + 1)
      }
    }
    skipSpace()
    guard peek == 0x5B else {
      if peek == nil { throw .truncated(index, "the input ends where the list of records belongs") }
      throw DataProblem(
        code: .invalidRecord,
        message: "'\(path.joined(separator: "."))' is not a list of records",
        label: "expected '[' here",
        help: "--root names the keys down to a list of objects: [{...}, {...}]", offset: index)
    }
    index += 1
  }

  /// After the list's `]`: the rest of the `levels` objects around it (more keys, then `}`).
  mutating func ascend(levels: Int) throws(DataProblem) {
    for level in 0..<levels {
      while true {
        skipSpace()
        if peek == 0x7D {
          index += 1
          break
        }
        try expect(0x2C, "',' or '}'")
        skipSpace()
        guard peek == 0x22 else { throw unexpected("a key in quotes") }
        _ = try string()
        try expect(0x3A, "':' after the key")
        try skipValue(depth: levels - level)
      }
    }
  }
}
