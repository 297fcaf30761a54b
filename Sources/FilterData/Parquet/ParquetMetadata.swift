/// The parts of a Parquet file's metadata flt reads (the format's `parquet.thrift`, by field
/// id): the schema, the row groups and their column chunks, and each page's header. Fields
/// flt does not use are passed over.
struct ParquetMetadata {
  /// The schema as the file lists it: depth first, the root first.
  var schema: [SchemaElement] = []
  var rowCount: Int64 = 0
  var rowGroups: [RowGroup] = []
  var createdBy: String?

  /// A column's physical type.
  enum PhysicalType: Int32 {
    case boolean = 0, int32, int64, int96, float, double, byteArray, fixedLengthByteArray
  }

  /// An element of the schema: a column (with a physical type) or a group of them.
  struct SchemaElement {
    var type: PhysicalType?
    var typeLength: Int32?
    /// 0 required, 1 optional, 2 repeated.
    var repetition: Int32 = 0
    var name = ""
    var childCount: Int32 = 0
    /// The old annotation (`ConvertedType`): 0 UTF8, 4 ENUM, 5 DECIMAL, 6 DATE, 9/10
    /// TIMESTAMP_MILLIS/MICROS, 11-18 (U)INT_8..64, 19 JSON, ...
    var convertedType: Int32?
    var scale: Int32 = 0
    var precision: Int32 = 0
    var logical: LogicalType?
  }

  /// The new annotation (`LogicalType`), where the writer gave one.
  enum LogicalType: Equatable {
    case string, map, list, enumeration, decimal(scale: Int32, precision: Int32), date
    case time(unit: TimeUnit), timestamp(unit: TimeUnit, utc: Bool)
    case integer(bits: Int8, signed: Bool), unknown, json, bson, uuid, float16, other
  }

  enum TimeUnit: Equatable { case milliseconds, microseconds, nanoseconds }

  struct RowGroup {
    var columns: [ColumnChunk] = []
    var rowCount: Int64 = 0
  }

  /// Where a column's values of one row group are, and how they are written.
  struct ColumnChunk {
    var type: PhysicalType = .int32
    var path: [String] = []
    /// 0 none, 1 snappy, 2 gzip, 3 LZO, 4 Brotli, 5 LZ4, 6 zstd, 7 LZ4_RAW.
    var codec: Int32 = 0
    var valueCount: Int64 = 0
    var compressedSize: Int64 = 0
    var dataPageOffset: Int64 = 0
    var dictionaryPageOffset: Int64?
    var statistics: Statistics?
    /// Where the chunk's page index is, when the writer wrote one (`ColumnChunk`'s own
    /// fields): the offset index (each page's place and first row) and the column index
    /// (each page's least and greatest value).
    var offsetIndex: (offset: Int64, length: Int32)?
    var columnIndex: (offset: Int64, length: Int32)?
  }

  /// A chunk's statistics: its least and greatest values (PLAIN-encoded, without a length),
  /// and how many of its values are null, where the writer gave them.
  struct Statistics {
    var min: [UInt8]?
    var max: [UInt8]?
    var nullCount: Int64?
    /// Whether `min` and `max` are the older fields (signed order).
    var isLegacy = false
  }

  /// A page's header: what kind of page, its sizes, and how its values are written.
  struct PageHeader {
    /// 0 data, 1 index, 2 dictionary, 3 data v2.
    var type: Int32 = 0
    var uncompressedSize: Int32 = 0
    var compressedSize: Int32 = 0
    var valueCount: Int32 = 0
    var encoding: Int32 = 0
    /// For v2: how many of the values are null, the rows, the levels' lengths (not
    /// compressed), and whether the values are.
    var nullCount: Int32 = 0
    var definitionLevelsLength: Int32 = 0
    var repetitionLevelsLength: Int32 = 0
    var isCompressed = true
  }
}

extension ParquetMetadata {
  typealias Reader = ThriftReader
  typealias Failure = ThriftReader.ThriftError

  /// The file's metadata (`FileMetaData`) from `reader`.
  init(_ reader: inout Reader) throws(Failure) {
    self.init()
    try reader.structure { (r, id, _) throws(Failure) in
      switch id {
      case 2: schema = try r.list { (r, _) throws(Failure) in try SchemaElement(&r) }
      case 3: rowCount = try r.int()
      case 4: rowGroups = try r.list { (r, _) throws(Failure) in try RowGroup(&r) }
      case 6: createdBy = try r.string()
      default: break
      }
    }
  }
}

extension ParquetMetadata.SchemaElement {
  init(_ reader: inout ThriftReader) throws(ThriftReader.ThriftError) {
    self.init()
    try reader.structure { (r, id, _) throws(ThriftReader.ThriftError) in
      switch id {
      case 1: type = ParquetMetadata.PhysicalType(rawValue: try r.int32())
      case 2: typeLength = try r.int32()
      case 3: repetition = try r.int32()
      case 4: name = try r.string()
      case 5: childCount = try r.int32()
      case 6: convertedType = try r.int32()
      case 7: scale = try r.int32()
      case 8: precision = try r.int32()
      case 10: logical = try ParquetMetadata.LogicalType(&r)
      default: break
      }
    }
  }
}

extension ParquetMetadata.LogicalType {
  /// The union `LogicalType`: one field set, its id the kind.
  init(_ reader: inout ThriftReader) throws(ThriftReader.ThriftError) {
    var kind: Self = .other
    try reader.structure { (r, id, _) throws(ThriftReader.ThriftError) in
      switch id {
      case 1: kind = .string
      case 2: kind = .map
      case 3: kind = .list
      case 4: kind = .enumeration
      case 5:
        var (scale, precision): (Int32, Int32) = (0, 0)
        try r.structure { (r, id, _) throws(ThriftReader.ThriftError) in
          if id == 1 { scale = try r.int32() }
          if id == 2 { precision = try r.int32() }
        }
        kind = .decimal(scale: scale, precision: precision)
      case 6: kind = .date
      case 7, 8:
        var (utc, unit) = (false, ParquetMetadata.TimeUnit.milliseconds)
        try r.structure { (r, id, type) throws(ThriftReader.ThriftError) in
          if id == 1 { utc = type == .boolTrue }
          if id == 2 { unit = try ParquetMetadata.TimeUnit(&r) }
        }
        kind = id == 7 ? .time(unit: unit) : .timestamp(unit: unit, utc: utc)
      case 10:
        var (bits, signed): (Int8, Bool) = (64, true)
        try r.structure { (r, id, type) throws(ThriftReader.ThriftError) in
          if id == 1 { bits = Int8(truncatingIfNeeded: try r.int()) }
          if id == 2 { signed = type == .boolTrue }
        }
        kind = .integer(bits: bits, signed: signed)
      case 11: kind = .unknown
      case 12: kind = .json
      case 13: kind = .bson
      case 14: kind = .uuid
      case 15: kind = .float16
      default: break
      }
    }
    self = kind
  }
}

extension ParquetMetadata.TimeUnit {
  /// The union `TimeUnit`.
  init(_ reader: inout ThriftReader) throws(ThriftReader.ThriftError) {
    var unit = Self.milliseconds
    try reader.structure { (_, id, _) throws(ThriftReader.ThriftError) in
      if id == 2 { unit = .microseconds }
      if id == 3 { unit = .nanoseconds }
    }
    self = unit
  }
}

extension ParquetMetadata.RowGroup {
  init(_ reader: inout ThriftReader) throws(ThriftReader.ThriftError) {
    self.init()
    try reader.structure { (r, id, _) throws(ThriftReader.ThriftError) in
      switch id {
      case 1:
        columns = try r.list { (r, _) throws(ThriftReader.ThriftError) in
          var chunk = ParquetMetadata.ColumnChunk()
          var (offsets, columns): ((Int64, Int32), (Int64, Int32)) = ((-1, -1), (-1, -1))
          try r.structure { (r, id, _) throws(ThriftReader.ThriftError) in
            switch id {
            case 3: chunk = try ParquetMetadata.ColumnChunk(&r)
            case 4: offsets.0 = try r.int()
            case 5: offsets.1 = try r.int32()
            case 6: columns.0 = try r.int()
            case 7: columns.1 = try r.int32()
            default: break
            }
          }
          if offsets.0 >= 0, offsets.1 > 0 { chunk.offsetIndex = offsets }
          if columns.0 >= 0, columns.1 > 0 { chunk.columnIndex = columns }
          return chunk
        }
      case 3: rowCount = try r.int()
      default: break
      }
    }
  }
}

extension ParquetMetadata.ColumnChunk {
  /// A chunk's `ColumnMetaData`.
  init(_ reader: inout ThriftReader) throws(ThriftReader.ThriftError) {
    self.init()
    try reader.structure { (r, id, _) throws(ThriftReader.ThriftError) in
      switch id {
      case 1: type = ParquetMetadata.PhysicalType(rawValue: try r.int32()) ?? .int32
      case 3: path = try r.list { (r, _) throws(ThriftReader.ThriftError) in try r.string() }
      case 4: codec = try r.int32()
      case 5: valueCount = try r.int()
      case 7: compressedSize = try r.int()
      case 9: dataPageOffset = try r.int()
      case 11: dictionaryPageOffset = try r.int()
      case 12: statistics = try ParquetMetadata.Statistics(&r)
      default: break
      }
    }
  }
}

extension ParquetMetadata.PageHeader {
  init(_ reader: inout ThriftReader) throws(ThriftReader.ThriftError) {
    self.init()
    try reader.structure { (r, id, _) throws(ThriftReader.ThriftError) in
      switch id {
      case 1: type = try r.int32()
      case 2: uncompressedSize = try r.int32()
      case 3: compressedSize = try r.int32()
      case 5, 7:
        // DataPageHeader, DictionaryPageHeader: the count and the encoding first.
        try r.structure { (r, id, _) throws(ThriftReader.ThriftError) in
          if id == 1 { valueCount = try r.int32() }
          if id == 2 { encoding = try r.int32() }
        }
      case 8:
        try r.structure { (r, id, type) throws(ThriftReader.ThriftError) in
          switch id {
          case 1: valueCount = try r.int32()
          case 2: nullCount = try r.int32()
          case 4: encoding = try r.int32()
          case 5: definitionLevelsLength = try r.int32()
          case 6: repetitionLevelsLength = try r.int32()
          case 7: isCompressed = type == .boolTrue
          default: break
          }
        }
      default: break
      }
    }
  }
}

extension ParquetMetadata.Statistics {
  /// `min_value` and `max_value`, ordered as the column's logical type orders values; the
  /// older `min` and `max` (ordered as signed bytes, wrong for text) only as a fallback that
  /// ``ParquetStatistics`` uses for numbers alone.
  init(_ reader: inout ThriftReader) throws(ThriftReader.ThriftError) {
    self.init()
    var (oldMin, oldMax): ([UInt8]?, [UInt8]?) = (nil, nil)
    try reader.structure { (r, id, _) throws(ThriftReader.ThriftError) in
      switch id {
      case 1: oldMax = try r.binary()
      case 2: oldMin = try r.binary()
      case 3: nullCount = try r.int()
      case 5: max = try r.binary()
      case 6: min = try r.binary()
      default: break
      }
    }
    if min == nil && max == nil { (min, max, isLegacy) = (oldMin, oldMax, true) }
  }
}
