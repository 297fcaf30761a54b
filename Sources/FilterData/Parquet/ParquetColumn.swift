import FilterDSL

/// A column of a Parquet file as flt reads it (a leaf of its schema): its place in the
/// schema, its physical type and annotation, and the flt type its values become.
struct ParquetColumn {
  /// How a stored value becomes an flt value.
  enum Conversion: Equatable {
    case bool, int, uint32, uint64, double, float, float16
    /// An unscaled integer (of any physical form) divided by 10^scale, exactly: a decimal of
    /// at most 38 digits.
    case exactDecimal(scale: Int)
    /// The same as a double: a decimal wider than 38 digits (`decimal256`).
    case decimal(scale: Int)
    /// Days since 1970-01-01.
    case date
    /// A count of `unit` since 1970-01-01T00:00:00Z.
    case timestamp(ParquetMetadata.TimeUnit)
    /// Spark's INT96: nanoseconds of the day and a Julian day.
    case int96
    /// A time of day, a count of `unit` since midnight.
    case timeOfDay(ParquetMetadata.TimeUnit)
    /// INTERVAL: months, days and milliseconds (12 bytes, little-endian): a duration when it
    /// has no months (a month's length varies), else an error.
    case interval
    case string, uuid
  }

  /// The leaf's path, its groups' names joined by dots (`camera.mp`): what messages name.
  var name: String
  var physical: ParquetMetadata.PhysicalType
  /// For FIXED_LEN_BYTE_ARRAY, the bytes of a value.
  var typeLength: Int
  /// The highest definition level (how many optional or repeated elements lead to the leaf,
  /// itself included) and repetition level (how many repeated ones).
  var maxDefinition: Int
  var maxRepetition: Int
  /// Whether the leaf is part of a field made of groups or lists: its levels are kept, and
  /// its values assembled into records and lists (``ParquetAssembler``). Otherwise it is a
  /// top-level field of its own, read straight into a column.
  var isNested: Bool
  var conversion: Conversion

  /// Whether a row of a top-level leaf may have no value.
  var optional: Bool { maxDefinition > 0 }

  /// The type flt gives the column's values.
  var type: ValueType {
    switch conversion {
    case .bool: .bool
    case .int, .uint32, .uint64: .int
    case .double, .float, .float16, .decimal: .double
    case .exactDecimal: .decimal
    case .date: .date
    case .timestamp, .int96: .dateTime
    case .timeOfDay: .time
    case .interval: .duration
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

  /// The leaf `element` of physical type `physical`, called `name`, at the levels given.
  init(
    _ element: ParquetMetadata.SchemaElement, _ physical: ParquetMetadata.PhysicalType,
    name: String, definition: Int, repetition: Int, nested: Bool
  ) {
    (self.name, self.physical) = (name, physical)
    (maxDefinition, maxRepetition, isNested) = (definition, repetition, nested)
    typeLength = Int(element.typeLength ?? 0)
    conversion = ParquetColumn.conversion(element, physical)
  }

  /// A decimal of `precision` digits, `scale` after the point: exact where flt's decimals
  /// hold every value it can have (38 digits), else a double.
  private static func decimal(
    scale: Int, precision: Int, _ physical: ParquetMetadata.PhysicalType,
    _ element: ParquetMetadata.SchemaElement
  ) -> Conversion {
    let width: Bool =
      switch physical {
      case .int32, .int64: true
      case .fixedLengthByteArray: (element.typeLength ?? 0) <= 16
      default: precision > 0
      }
    let fits = (0...ExactDecimal.maximumDigits).contains(scale) && precision <= 38 && width
    return fits ? .exactDecimal(scale: scale) : .decimal(scale: scale)
  }

  private static func conversion(
    _ element: ParquetMetadata.SchemaElement, _ physical: ParquetMetadata.PhysicalType
  ) -> Conversion {
    let converted = element.convertedType
    let logical = element.logical
    if case .decimal(let scale, let precision) = logical {
      return decimal(scale: Int(scale), precision: Int(precision), physical, element)
    }
    if converted == 5 {
      return decimal(
        scale: Int(element.scale), precision: Int(element.precision), physical, element)
    }
    switch physical {
    case .boolean: return .bool
    case .int32:
      if logical == .date || converted == 6 { return .date }
      if case .time(let unit) = logical { return .timeOfDay(unit) }
      if converted == 7 { return .timeOfDay(.milliseconds) }
      if case .integer(_, false) = logical { return .uint32 }
      if let converted, (11...13).contains(converted) { return .uint32 }
      return .int
    case .int64:
      if case .timestamp(let unit, _) = logical { return .timestamp(unit) }
      if case .time(let unit) = logical { return .timeOfDay(unit) }
      if converted == 8 { return .timeOfDay(.microseconds) }
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
      if converted == 21 && element.typeLength == 12 { return .interval }
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
