import FilterDSL

/// Makes a nested field's values, row by row, from its leaves' chunks: the record assembly of
/// Dremel, the paper Parquet's levels come from. Each shape reads its leaves' next entries: an
/// optional element is null where its first leaf's definition level stops short of it (each
/// of its leaves then has one entry for that null), a list is empty likewise, and takes
/// another element while its first leaf's next entry repeats at the list's level.
///
/// A file whose levels do not fit its schema (an entry missing, a value where a null should
/// be, entries left over) throws a ``ParquetError``: the cursors never run past a chunk, and
/// every step takes at least one entry, so a corrupt file cannot loop or trap.
struct ParquetAssembler {
  private var chunks: [ParquetChunk]
  /// The file's place of the first of ``chunks``.
  private let first: Int
  /// For each chunk: its next entry, and its next value.
  private var entries: [Int]
  private var values: [Int]

  /// Reads the leaves `leaves` of the file's columns, whose chunks are `chunks`.
  init(_ chunks: [ParquetChunk], leaves: Range<Int>) {
    (self.chunks, first) = (chunks, leaves.lowerBound)
    entries = Array(repeating: 0, count: chunks.count)
    values = entries
  }

  /// The values of `rows` rows of a field of `shape`.
  mutating func values(_ shape: ParquetShape, rows: Int) throws(ParquetError) -> [Value] {
    var out: [Value] = []
    out.reserveCapacity(rows)
    let lead = shape.leaves.lowerBound - first
    for _ in 0..<rows {
      guard lead >= 0, lead < chunks.count, entries[lead] < chunks[lead].repetitions.count,
        chunks[lead].repetitions[entries[lead]] == 0
      else { throw Self.misfit }
      out.append(try value(shape))
    }
    for (index, chunk) in chunks.enumerated() where entries[index] != chunk.definitions.count {
      throw Self.misfit
    }
    return out
  }

  private static let misfit = ParquetError("has levels that do not fit its schema")

  /// The next value of `shape`.
  private mutating func value(_ shape: ParquetShape) throws(ParquetError) -> Value {
    switch shape {
    case .value(let leaf):
      let index = leaf - first
      guard index >= 0, index < chunks.count else { throw Self.misfit }
      let chunk = chunks[index]
      let entry = entries[index]
      guard entry < chunk.definitions.count,
        Int(chunk.definitions[entry]) == chunk.column.maxDefinition,
        let value = chunk.value(at: values[index])
      else { throw Self.misfit }
      entries[index] += 1
      values[index] += 1
      return value
    case .optional(let inner, let level):
      guard try definition(inner) >= level else {
        try skip(inner)
        return .null
      }
      return try value(inner)
    case .record(let fields):
      var record: [Value] = []
      record.reserveCapacity(fields.count)
      for field in fields { record.append(try value(field)) }
      return .record(record)
    case .list(let element, let level, let repetition):
      guard try definition(element) >= level else {
        try skip(element)
        return .list([])
      }
      var list = [try value(element)]
      let lead = element.leaves.lowerBound - first
      while entries[lead] < chunks[lead].repetitions.count,
        Int(chunks[lead].repetitions[entries[lead]]) == repetition
      {
        list.append(try value(element))
      }
      return .list(list)
    }
  }

  /// The definition level of the next entry of `shape`'s first leaf.
  private func definition(_ shape: ParquetShape) throws(ParquetError) -> Int {
    let lead = shape.leaves.lowerBound - first
    guard lead >= 0, lead < chunks.count, entries[lead] < chunks[lead].definitions.count else {
      throw Self.misfit
    }
    return Int(chunks[lead].definitions[entries[lead]])
  }

  /// Passes over the entry each of `shape`'s leaves has for a null or an empty list above
  /// them (no value).
  private mutating func skip(_ shape: ParquetShape) throws(ParquetError) {
    for leaf in shape.leaves {
      let index = leaf - first
      guard index >= 0, index < chunks.count, entries[index] < chunks[index].definitions.count,
        Int(chunks[index].definitions[entries[index]]) < chunks[index].column.maxDefinition
      else { throw Self.misfit }
      entries[index] += 1
    }
  }
}
