import FilterDSL

/// A leaf's entries in the row group being gathered: each entry's levels, and the values of
/// those that have one, by kind.
struct LeafChunk {
  let kind: ParquetLayout.Kind
  var definitions: [UInt32] = []
  var repetitions: [UInt32] = []
  var bools: [Bool] = []
  /// Integers, dates (days), date-times and times of day (microseconds).
  var ints: [Int64] = []
  var doubles: [Double] = []
  var texts: [[UInt8]] = []

  init(kind: ParquetLayout.Kind) { self.kind = kind }

  /// The values, PLAIN-encoded.
  func plain() -> [UInt8] {
    var out: [UInt8] = []
    switch kind {
    case .bool:
      out = [UInt8](repeating: 0, count: (bools.count + 7) / 8)
      for (index, bool) in bools.enumerated() where bool { out[index / 8] |= 1 << (index % 8) }
    case .int, .dateTime, .time:
      out.reserveCapacity(ints.count * 8)
      for int in ints { out.appendLittleEndian(int) }
    case .date:
      out.reserveCapacity(ints.count * 4)
      for int in ints { out.appendLittleEndian(Int32(truncatingIfNeeded: int)) }
    case .double:
      out.reserveCapacity(doubles.count * 8)
      for double in doubles { out.appendLittleEndian(double.bitPattern) }
    case .text:
      for text in texts { out += ParquetWriter.lengthPrefixed(text) }
    }
    return out
  }

  /// Text with few distinct values (at most half as many as values, and 65,536): those
  /// values, and each value's index among them.
  func dictionary() -> (values: [[UInt8]], indices: [UInt32])? {
    guard kind == .text, texts.count >= 2 else { return nil }
    var index: [[UInt8]: UInt32] = [:]
    var values: [[UInt8]] = []
    var indices: [UInt32] = []
    indices.reserveCapacity(texts.count)
    for text in texts {
      if let known = index[text] {
        indices.append(known)
        continue
      }
      guard values.count < Swift.min(1 << 16, texts.count / 2) else { return nil }
      index[text] = UInt32(values.count)
      indices.append(UInt32(values.count))
      values.append(text)
    }
    return (values, indices)
  }

  /// The chunk's statistics: how many entries have no value, and the least and greatest
  /// values as the format orders the leaf's type (text by its bytes, unsigned; NaN left out;
  /// a zero least as -0.0 and a zero greatest as +0.0), PLAIN-encoded without a length.
  /// Text longer than 64 bytes gives no bounds.
  func statistics(_ leaf: ParquetLayout.Leaf) -> ChunkStatistics {
    let highest = UInt32(leaf.maxDefinition)
    var statistics = ChunkStatistics(nulls: definitions.lazy.filter { $0 < highest }.count)
    switch kind {
    case .bool:
      if let low = bools.min(by: { !$0 && $1 }), let high = bools.max(by: { !$0 && $1 }) {
        (statistics.min, statistics.max) = ([low ? 1 : 0], [high ? 1 : 0])
      }
    case .int, .dateTime, .time:
      if let low = ints.min(), let high = ints.max() {
        (statistics.min, statistics.max) = (
          [UInt8](littleEndian: low), [UInt8](littleEndian: high)
        )
      }
    case .date:
      if let low = ints.min(), let high = ints.max() {
        (statistics.min, statistics.max) = (
          [UInt8](littleEndian: Int32(truncatingIfNeeded: low)),
          [UInt8](littleEndian: Int32(truncatingIfNeeded: high))
        )
      }
    case .double:
      let numbers = doubles.filter { !$0.isNaN }
      if var low = numbers.min(), var high = numbers.max() {
        if low == 0 { low = -0.0 }
        if high == 0 { high = 0.0 }
        (statistics.min, statistics.max) = (
          [UInt8](littleEndian: low.bitPattern), [UInt8](littleEndian: high.bitPattern)
        )
      }
    case .text:
      if let low = texts.min(by: { $0.lexicographicallyPrecedes($1) }),
        let high = texts.max(by: { $0.lexicographicallyPrecedes($1) }),
        low.count <= 64, high.count <= 64
      {
        (statistics.min, statistics.max) = (low, high)
      }
    }
    return statistics
  }
}

struct ChunkStatistics {
  var nulls: Int
  var min: [UInt8]?
  var max: [UInt8]?
}

/// What the footer says of a column chunk written.
struct ChunkMetadata {
  var type: ParquetMetadata.PhysicalType
  var path: [String]
  var entries: Int
  /// Where the chunk begins, its dictionary page and its data page.
  var start: Int
  var statistics: ChunkStatistics
  var dictionaryOffset: Int?
  var dataOffset = 0
  /// PLAIN and RLE (the levels); PLAIN, RLE and RLE_DICTIONARY with a dictionary.
  var encodings: [Int32] = [0, 3]
  /// 0 none, 1 snappy.
  var codec: Int32 = 0
  var uncompressed = 0
  var compressed = 0

  init(
    type: ParquetMetadata.PhysicalType, path: [String], entries: Int, start: Int,
    statistics: ChunkStatistics
  ) {
    (self.type, self.path, self.entries, self.start) = (type, path, entries, start)
    self.statistics = statistics
  }
}

struct RowGroupMetadata {
  var columns: [ChunkMetadata]
  var bytes: Int
  var rows: Int
}

extension ThriftWriter {
  /// A `DataPageHeader` (field 5): the entries, the values' encoding, RLE levels.
  mutating func dataPage(_ entries: Int, encoding: Int32) {
    structure(5) {
      $0.i32(1, Int32(clamping: entries))
      $0.i32(2, encoding)
      $0.i32(3, 3)
      $0.i32(4, 3)
    }
  }

  /// A `DictionaryPageHeader` (field 7): the values, PLAIN.
  mutating func dictionaryPage(_ count: Int) {
    structure(7) {
      $0.i32(1, Int32(clamping: count))
      $0.i32(2, 0)
    }
  }

  /// A list field of schema elements, each written by its closure.
  mutating func listOfElements(_ id: Int16, _ elements: [(inout ThriftWriter) -> Void]) {
    list(id, elements) { writer, element in element(&writer) }
  }

  /// A `RowGroup`: its column chunks (each a `ColumnChunk` with its `ColumnMetaData`), bytes
  /// and rows.
  mutating func rowGroup(_ group: RowGroupMetadata) {
    list(1, group.columns) { chunk, column in
      chunk.i64(2, Int64(column.start))
      chunk.structure(3) { meta in
        meta.i32(1, column.type.rawValue)
        meta.list(2, i32: column.encodings)
        meta.list(3, strings: column.path)
        meta.i32(4, column.codec)
        meta.i64(5, Int64(column.entries))
        meta.i64(6, Int64(column.uncompressed))
        meta.i64(7, Int64(column.compressed))
        meta.i64(9, Int64(column.dataOffset))
        if let dictionary = column.dictionaryOffset { meta.i64(11, Int64(dictionary)) }
        meta.structure(12) { statistics in
          statistics.i64(3, Int64(column.statistics.nulls))
          if let max = column.statistics.max { statistics.binary(5, max) }
          if let min = column.statistics.min { statistics.binary(6, min) }
        }
      }
    }
    i64(2, Int64(group.bytes))
    i64(3, Int64(group.rows))
  }
}
