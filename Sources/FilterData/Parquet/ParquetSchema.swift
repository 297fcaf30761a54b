import FilterDSL

/// A top-level field of a Parquet file: a leaf read straight into a column, or a tree of
/// groups and repeated elements whose leaves are assembled into records and lists.
struct ParquetField {
  var name: String
  var type: ValueType
  var optional: Bool
  /// How a row's value is made from the leaves' levels and values.
  var shape: ParquetShape
  /// The field's leaves: their places among the file's columns (and each row group's
  /// chunks), contiguous as the schema lists them depth first.
  var leaves: Range<Int>
  /// Whether the field is one leaf, read straight into a column (no levels kept).
  var isFlat: Bool
}

/// How a nested field's values are made from its leaves (Dremel's record assembly): each
/// leaf has an entry per value or per null or empty list on the way to it, with its
/// definition level (how many of the optional and repeated elements above it are there) and
/// repetition level (at which list a new element begins; 0 for a new row).
indirect enum ParquetShape {
  /// The next value of the leaf at this place among the file's columns.
  case value(leaf: Int)
  /// Null where the entry's definition level is below `level`; the shape's value otherwise.
  case optional(ParquetShape, level: Int)
  /// A record of its fields' values, in the schema's order.
  case record([ParquetShape])
  /// A list: empty where the entry's definition level is below `level`; otherwise elements
  /// of the shape, another while the next entry's repetition level is `repetition`.
  case list(ParquetShape, level: Int, repetition: Int)
}

/// The fields a Parquet schema describes: its elements (depth first, the root first) made a
/// tree, each top-level field's type and shape, and its leaves as columns. Groups become
/// records; repeated elements, lists (`LIST`, in the three-level layout the format asks for
/// and in the older two-level ones it keeps readable) and maps (`MAP`: lists of key-value
/// records) become lists.
struct ParquetSchema {
  private(set) var fields: [ParquetField] = []
  private(set) var columns: [ParquetColumn] = []

  /// The deepest a schema may nest: levels fit a byte, and reading never recurses deeper.
  static let maxDepth = 64

  private struct Node {
    var element: ParquetMetadata.SchemaElement
    var children: [Node]
  }

  init(_ elements: [ParquetMetadata.SchemaElement]) throws(ParquetError) {
    guard let root = elements.first else { throw ParquetError("has no schema") }
    var position = 1
    var top: [Node] = []
    for _ in 0..<Swift.max(0, Int(root.childCount)) {
      guard position < elements.count else { break }
      top.append(try Self.node(elements, &position, depth: 1))
    }
    guard !top.isEmpty else { throw ParquetError("has no columns") }
    guard top.count == Int(root.childCount), position == elements.count else {
      throw ParquetError("has a schema whose columns do not add up")
    }
    var seen = Set<String>()
    for node in top {
      let name = node.element.name
      guard seen.insert(name).inserted else {
        throw ParquetError("has two columns called '\(name)'")
      }
      let first = columns.count
      let (shape, type, optional) = try field(node, definition: 0, repetition: 0, path: name)
      let flat: Bool
      if case .value = shape {
        flat = true
      } else if case .optional(.value, _) = shape {
        flat = true
      } else {
        flat = false
      }
      fields.append(
        ParquetField(
          name: name, type: type, optional: optional, shape: shape,
          leaves: first..<columns.count, isFlat: flat))
      if !flat {
        for index in first..<columns.count { columns[index].isNested = true }
      }
    }
  }

  /// The element at `position` and the elements of its children, depth first.
  private static func node(
    _ elements: [ParquetMetadata.SchemaElement], _ position: inout Int, depth: Int
  ) throws(ParquetError) -> Node {
    guard depth <= maxDepth else {
      throw ParquetError("is nested deeper than \(maxDepth) levels")
    }
    let element = elements[position]
    position += 1
    guard element.type == nil else { return Node(element: element, children: []) }
    guard element.childCount > 0 else {
      throw ParquetError("has a group with no columns ('\(element.name)')")
    }
    var children: [Node] = []
    for _ in 0..<Int(element.childCount) {
      guard position < elements.count else {
        throw ParquetError("has a schema whose columns do not add up")
      }
      children.append(try node(elements, &position, depth: depth + 1))
    }
    return Node(element: element, children: children)
  }

  /// The shape and type of `node` below `definition` optional or repeated elements, of which
  /// `repetition` repeated, and whether it may be null.
  private mutating func field(_ node: Node, definition: Int, repetition: Int, path: String)
    throws(ParquetError) -> (ParquetShape, ValueType, Bool)
  {
    switch node.element.repetition {
    case 1:
      let (shape, type) = try bare(
        node, definition: definition + 1, repetition: repetition, path: path)
      return (.optional(shape, level: definition + 1), type, true)
    case 2:
      let (shape, type) = try bare(
        node, definition: definition + 1, repetition: repetition + 1, path: path)
      return (
        .list(shape, level: definition + 1, repetition: repetition + 1), .list(type), false
      )
    default:
      let (shape, type) = try bare(
        node, definition: definition, repetition: repetition, path: path)
      return (shape, type, false)
    }
  }

  /// The shape and type of `node` itself, whatever its repetition.
  private mutating func bare(_ node: Node, definition: Int, repetition: Int, path: String)
    throws(ParquetError) -> (ParquetShape, ValueType)
  {
    let element = node.element
    if let physical = element.type {
      // (A fixed length of 0 or less would let a page claim any number of values in no bytes.)
      guard physical != .fixedLengthByteArray || (element.typeLength ?? 0) > 0 else {
        throw ParquetError(
          "has a FIXED_LEN_BYTE_ARRAY column ('\(path)') of length \(element.typeLength ?? 0)")
      }
      let column = ParquetColumn(
        element, physical, name: path, definition: definition, repetition: repetition,
        nested: false)
      columns.append(column)
      return (.value(leaf: columns.count - 1), column.type)
    }
    let isList = element.logical == .list || element.convertedType == 3
    let isMap = element.logical == .map || element.convertedType == 1 || element.convertedType == 2
    if isList || isMap {
      guard node.children.count == 1, let repeated = node.children.first,
        repeated.element.repetition == 2
      else {
        throw ParquetError(
          "has a \(isMap ? "map" : "list") column ('\(path)') laid out in a way flt does not know")
      }
      let (inner, innerRepetition) = (definition + 1, repetition + 1)
      let innerPath = path + "." + repeated.element.name
      // The element: the repeated group's one field (three levels), or the repeated element
      // itself (two levels: a value, a group of several fields, a group the older writers
      // called `array` or `<list>_tuple`, and every map's key-value group).
      let name = repeated.element.name
      if !isMap, repeated.element.type == nil, repeated.children.count == 1, name != "array",
        name != element.name + "_tuple"
      {
        let child = repeated.children[0]
        let (shape, type, _) = try field(
          child, definition: inner, repetition: innerRepetition,
          path: innerPath + "." + child.element.name)
        return (.list(shape, level: inner, repetition: innerRepetition), .list(type))
      }
      let (shape, type) = try bare(
        repeated, definition: inner, repetition: innerRepetition, path: innerPath)
      return (.list(shape, level: inner, repetition: innerRepetition), .list(type))
    }
    var shapes: [ParquetShape] = []
    var fields: [Schema.Field] = []
    var seen = Set<String>()
    for child in node.children {
      let name = child.element.name
      guard seen.insert(name).inserted else {
        throw ParquetError("has two fields called '\(name)' in '\(path)'")
      }
      let (shape, type, optional) = try field(
        child, definition: definition, repetition: repetition, path: path + "." + name)
      shapes.append(shape)
      fields.append(Schema.Field(name, type, optional: optional))
    }
    return (.record(shapes), .record(Schema(fields)))
  }
}
