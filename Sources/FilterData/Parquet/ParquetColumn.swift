import FilterDSL

/// A column of a Parquet file as flt reads it: its place in the schema, its physical type
/// and annotation, and the flt type its values become.
struct ParquetColumn {
  /// How a stored value becomes an flt value.
  enum Conversion: Equatable {
    case bool, int, uint32, uint64, double, float, float16
    /// An unscaled integer (of any physical form) divided by 10^scale.
    case decimal(scale: Int)
    /// Days since 1970-01-01.
    case date
    /// A count of `unit` since 1970-01-01T00:00:00Z.
    case timestamp(ParquetMetadata.TimeUnit)
    /// Spark's INT96: nanoseconds of the day and a Julian day.
    case int96
    case string, uuid
  }

  var name: String
  var physical: ParquetMetadata.PhysicalType
  /// For FIXED_LEN_BYTE_ARRAY, the bytes of a value.
  var typeLength: Int
  /// Whether a row may have no value (its definition level 0).
  var optional: Bool
  var conversion: Conversion

  /// The type flt gives the column's values.
  var type: ValueType {
    switch conversion {
    case .bool: .bool
    case .int, .uint32, .uint64: .int
    case .double, .float, .float16, .decimal: .double
    case .date: .date
    case .timestamp, .int96: .dateTime
    case .string, .uuid: .string
    }
  }

  /// How the values are held while a chunk is read: integers and decimals in arrays of their
  /// own, others as values.
  enum Storage { case ints, doubles, values }

  var storage: Storage {
    switch conversion {
    case .int, .uint32, .uint64: .ints
    case .double, .float, .float16, .decimal: .doubles
    default: .values
    }
  }

  /// The column `element` describes (a leaf at the top of the schema), or a message saying
  /// why it cannot be read.
  init(_ element: ParquetMetadata.SchemaElement) throws(ParquetError) {
    guard let physical = element.type else {
      throw ParquetError("column '\(element.name)' is a group (nested data is not read yet)")
    }
    guard element.repetition != 2 else {
      throw ParquetError("column '\(element.name)' is repeated (lists are not read yet)")
    }
    (name, self.physical, optional) = (element.name, physical, element.repetition == 1)
    typeLength = Int(element.typeLength ?? 0)
    conversion = try ParquetColumn.conversion(element, physical)
  }

  private static func conversion(
    _ element: ParquetMetadata.SchemaElement, _ physical: ParquetMetadata.PhysicalType
  ) throws(ParquetError) -> Conversion {
    let converted = element.convertedType
    let logical = element.logical
    if case .decimal(let scale, _) = logical { return .decimal(scale: Int(scale)) }
    if converted == 5 { return .decimal(scale: Int(element.scale)) }
    switch physical {
    case .boolean: return .bool
    case .int32:
      if logical == .date || converted == 6 { return .date }
      if case .integer(_, false) = logical { return .uint32 }
      if let converted, (11...13).contains(converted) { return .uint32 }
      return .int
    case .int64:
      if case .timestamp(let unit, _) = logical { return .timestamp(unit) }
      if converted == 9 { return .timestamp(.milliseconds) }
      if converted == 10 { return .timestamp(.microseconds) }
      if case .integer(_, false) = logical { return .uint64 }
      if converted == 14 { return .uint64 }
      return .int
    case .int96: return .int96
    case .float: return .float
    case .double: return .double
    case .byteArray: return .string
    case .fixedLengthByteArray:
      if logical == .uuid && element.typeLength == 16 { return .uuid }
      if logical == .float16 && element.typeLength == 2 { return .float16 }
      return .string
    }
  }
}

/// What is wrong with a Parquet file, in words (the reader adds the file, column and row
/// group).
struct ParquetError: Error, Equatable {
  var message: String
  init(_ message: String) { self.message = message }
}
