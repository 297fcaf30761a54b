import FilterDSL

/// A field of an Arrow schema (`Schema.fbs`): its name, whether it may be null, its type, its
/// children (of a list, struct or map), and the dictionary its values are coded into, if any.
struct ArrowField {
  var name: String
  var nullable: Bool
  var type: ArrowType
  var children: [ArrowField]
  /// The id of the dictionary batches that hold its values, when the field holds their
  /// indexes (its ``type`` is then the values', the indexes' in ``indexType``).
  var dictionary: Int64?
  var indexType: ArrowType?
  /// `ARROW:extension:name` from its metadata (`arrow.uuid`), if any.
  var extensionName: String?

  /// How many levels of children it has below it (0 for a leaf).
  var depth: Int { children.map { $0.depth + 1 }.max() ?? 0 }

  /// The flt type its values take.
  func valueType() throws(ArrowError) -> ValueType {
    switch type {
    case .null: return .null
    case .bool: return .bool
    case .int, .uint: return .int
    case .float: return .double
    case .decimal(_, let scale, let width):
      return width <= 128 && (0...ExactDecimal.maximumDigits).contains(scale) ? .decimal : .double
    case .utf8, .binary, .fixedBinary: return .string
    case .date: return .date
    case .time: return .time
    case .timestamp: return .dateTime
    case .duration, .interval: return .duration
    case .list, .fixedList:
      guard let element = children.first else {
        throw ArrowError("has a list with no element type")
      }
      return .list(try element.valueType())
    case .map:
      guard case .record? = try children.first?.valueType() else {
        throw ArrowError("has a map whose entries are not key-value records")
      }
      return .list(try children[0].valueType())
    case .structure:
      var fields: [Schema.Field] = []
      for child in children {
        fields.append(Schema.Field(child.name, try child.valueType(), optional: child.nullable))
      }
      return .record(Schema(fields))
    case .unsupported(let name):
      throw ArrowError("column '\(self.name)' is of Arrow's \(name) type, which flt does not read")
    }
  }
}

/// An Arrow type, as far as flt reads it.
enum ArrowType: Equatable {
  case null, bool
  /// Integers of `bits` bits, signed or not.
  case int(bits: Int), uint(bits: Int)
  /// Floats of `bits` bits (16, 32, 64).
  case float(bits: Int)
  /// Decimals of `precision` digits, `scale` after the point, stored in `bits` bits.
  case decimal(precision: Int, scale: Int, bits: Int)
  /// Text, or bytes; with 32-bit offsets, 64-bit ones (`large`), or views.
  case utf8(ArrowLayout), binary(ArrowLayout)
  case fixedBinary(width: Int)
  /// Days (32 bits) or milliseconds (64) since 1970-01-01.
  case date(milliseconds: Bool)
  /// A count of `unit` (one of ``ArrowType/perSecond``) since midnight, in `bits` bits.
  case time(perSecond: Int64, bits: Int)
  /// A count of `perSecond`ths of a second since 1970-01-01T00:00:00Z.
  case timestamp(perSecond: Int64)
  case duration(perSecond: Int64)
  /// DAY_TIME (days and milliseconds) or MONTH_DAY_NANO intervals.
  case interval(monthDayNano: Bool)
  case list(ArrowLayout)
  case fixedList(size: Int)
  case map
  case structure
  /// A type flt does not read, by its name in Arrow's schema.
  case unsupported(String)

  /// Arrow's `TimeUnit` as how many make a second.
  static func perSecond(_ unit: Int16) -> Int64 {
    switch unit {
    case 0: 1
    case 1: 1_000
    case 2: 1_000_000
    default: 1_000_000_000
    }
  }
}

/// How a list or binary type finds each row's elements: 32-bit offsets, 64-bit offsets, or
/// views (Arrow's `Utf8View`, `BinaryView`, `ListView`).
enum ArrowLayout: Equatable { case offsets, largeOffsets, views }

extension ArrowField {
  /// The field the `Field` table `table` describes.
  init(_ table: FlatTable) throws(ArrowError) {
    name = try table.string(0) ?? ""
    nullable = try table.bool(1)
    let kind = try table.integer(2, UInt8.self)
    let details = try table.table(3)
    type = try ArrowField.type(kind, details)
    children = try table.tables(5).map { (child) throws(ArrowError) in try ArrowField(child) }
    if let encoding = try table.table(4) {
      dictionary = try encoding.integer(0, Int64.self)
      indexType =
        try encoding.table(1).map { (index) throws(ArrowError) in
          try ArrowField.type(2, index)
        } ?? .int(bits: 32)
    }
    for entry in try table.tables(6) where try entry.string(0) == "ARROW:extension:name" {
      extensionName = try entry.string(1)
    }
  }

  /// The type of union member `kind` (`Type` in `Schema.fbs`) described by `table`.
  private static func type(_ kind: UInt8, _ table: FlatTable?) throws(ArrowError) -> ArrowType {
    func int(_ number: Int, _ fallback: Int32 = 0) throws(ArrowError) -> Int {
      Int(try table?.integer(number, Int32.self, or: fallback) ?? fallback)
    }
    func unit(_ fallback: Int16) throws(ArrowError) -> Int64 {
      ArrowType.perSecond(try table?.integer(0, Int16.self, or: fallback) ?? fallback)
    }
    switch kind {
    case 1: return .null
    case 2:
      let bits = try int(0)
      guard [8, 16, 32, 64].contains(bits) else {
        throw ArrowError("has integers of \(bits) bits")
      }
      return try table?.bool(1) ?? false ? .int(bits: bits) : .uint(bits: bits)
    case 3:
      switch try table?.integer(0, Int16.self) ?? 0 {
      case 0: return .float(bits: 16)
      case 1: return .float(bits: 32)
      default: return .float(bits: 64)
      }
    case 4: return .binary(.offsets)
    case 5: return .utf8(.offsets)
    case 6: return .bool
    case 7:
      let bits = try int(2, 128)
      guard [32, 64, 128, 256].contains(bits) else {
        throw ArrowError("has decimals of \(bits) bits")
      }
      return .decimal(precision: try int(0), scale: try int(1), bits: bits)
    case 8: return .date(milliseconds: try table?.integer(0, Int16.self, or: 1) ?? 1 == 1)
    case 9:
      let bits = try int(1, 32)
      guard bits == 32 || bits == 64 else { throw ArrowError("has times of \(bits) bits") }
      return .time(perSecond: try unit(1), bits: bits)
    case 10: return .timestamp(perSecond: try unit(0))
    case 11:
      switch try table?.integer(0, Int16.self) ?? 0 {
      case 1: return .interval(monthDayNano: false)
      case 2: return .interval(monthDayNano: true)
      default: return .unsupported("year-month interval")
      }
    case 12: return .list(.offsets)
    case 13: return .structure
    case 14: return .unsupported("union")
    case 15:
      let width = try int(0)
      guard width >= 0 else { throw ArrowError("has fixed-size binary of \(width) bytes") }
      return .fixedBinary(width: width)
    case 16:
      let size = try int(0)
      guard size >= 0 else { throw ArrowError("has fixed-size lists of \(size) elements") }
      return .fixedList(size: size)
    case 17: return .map
    case 18: return .duration(perSecond: try unit(1))
    case 19: return .binary(.largeOffsets)
    case 20: return .utf8(.largeOffsets)
    case 21: return .list(.largeOffsets)
    case 22: return .unsupported("run-end encoded")
    case 23: return .binary(.views)
    case 24: return .utf8(.views)
    case 25: return .list(.views)
    case 26: return .unsupported("large list view")
    default: return .unsupported("type \(kind)")
    }
  }
}

/// An Arrow schema: its fields, and flt's schema of the records they make.
struct ArrowSchema {
  var fields: [ArrowField]

  /// The deepest nesting flt reads (as for Parquet).
  static let maxDepth = 64

  /// The schema the `Schema` table `table` describes.
  init(_ table: FlatTable) throws(ArrowError) {
    guard try table.integer(0, Int16.self) == 0 else {
      throw ArrowError("is big-endian Arrow data, which flt does not read")
    }
    fields = try table.tables(1).map { (field) throws(ArrowError) in try ArrowField(field) }
    for field in fields where field.depth > ArrowSchema.maxDepth {
      throw ArrowError(
        "has a column '\(field.name)' nested \(field.depth) levels deep, more than the \(ArrowSchema.maxDepth) flt reads"
      )
    }
  }

  /// flt's schema of the records (a column of a type flt does not read is an error).
  func schema() throws(ArrowError) -> Schema {
    var made: [Schema.Field] = []
    for field in fields {
      made.append(Schema.Field(field.name, try field.valueType(), optional: field.nullable))
    }
    return Schema(made)
  }
}
