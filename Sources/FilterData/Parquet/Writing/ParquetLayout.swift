import FilterDSL

/// How a schema is written as Parquet: every field optional; records as groups, lists in the
/// three-level layout the format asks for (`optional group x (LIST) { repeated group list {
/// optional ... element } }`); each leaf a physical type and annotation for its flt type. The
/// counterpart of ``ParquetSchema``, which reads these back as the same types.
struct ParquetLayout {
  /// A leaf's flt type as written.
  enum Kind {
    case bool, int, double, date, dateTime, time
    /// Text, and what has no type of its own in Parquet (durations, a list's elements of no
    /// known type), written as its text.
    case text
  }

  struct Leaf {
    var path: [String]
    var kind: Kind
    var maxDefinition: Int
    var maxRepetition: Int

    var physical: ParquetMetadata.PhysicalType {
      switch kind {
      case .bool: .boolean
      case .int, .dateTime, .time: .int64
      case .double: .double
      case .date: .int32
      case .text: .byteArray
      }
    }
  }

  /// How a field's values become its leaves' entries (``ParquetWriter`` shreds them).
  indirect enum Node {
    /// An optional leaf, defined at `level`.
    case leaf(Int, level: Int)
    /// An optional group, defined at `level`.
    case record([Node], level: Int)
    /// An optional list, defined at `level`; its elements repeat at `repetition`.
    case list(Node, level: Int, repetition: Int)

    /// The leaves under the node, a contiguous run.
    var leaves: ClosedRange<Int> {
      switch self {
      case .leaf(let index, _): index...index
      case .list(let element, _, _): element.leaves
      case .record(let fields, _):
        (fields.first?.leaves.lowerBound ?? 0)...(fields.last?.leaves.upperBound ?? 0)
      }
    }
  }

  private(set) var leaves: [Leaf] = []
  private(set) var nodes: [Node] = []
  /// The schema's elements, depth first, the root first: written into the footer.
  private(set) var elements: [(inout ThriftWriter) -> Void] = []

  /// How deep the schema nests: each record and each list's two levels count one.
  var depth: Int { leaves.map(\.maxDefinition).max() ?? 0 }

  init(_ schema: Schema) {
    let fields = schema.fields
    elements.append { writer in
      writer.string(4, "schema")
      writer.i32(5, Int32(clamping: fields.count))
    }
    for field in fields {
      nodes.append(node(field.name, field.type, level: 0, repetition: 0, path: []))
    }
  }

  private mutating func node(
    _ name: String, _ type: ValueType, level: Int, repetition: Int, path: [String]
  ) -> Node {
    let defined = level + 1
    switch type {
    case .record(let schema) where !schema.fields.isEmpty:
      elements.append { writer in
        writer.i32(3, 1)
        writer.string(4, name)
        writer.i32(5, Int32(clamping: schema.fields.count))
      }
      let children = schema.fields.map {
        node($0.name, $0.type, level: defined, repetition: repetition, path: path + [name])
      }
      return .record(children, level: defined)
    case .list(let element):
      elements.append { writer in
        writer.i32(3, 1)
        writer.string(4, name)
        writer.i32(5, 1)
        writer.i32(6, 3)  // LIST
        writer.structure(10) { $0.structure(3) { _ in } }
      }
      elements.append { writer in
        writer.i32(3, 2)
        writer.string(4, "list")
        writer.i32(5, 1)
      }
      let child = node(
        "element", element, level: defined + 1, repetition: repetition + 1,
        path: path + [name, "list"])
      return .list(child, level: defined, repetition: repetition + 1)
    default:
      let kind: Kind =
        switch type {
        case .bool: .bool
        case .int: .int
        case .double: .double
        case .date: .date
        case .dateTime: .dateTime
        case .time: .time
        default: .text
        }
      let leaf = Leaf(
        path: path + [name], kind: kind, maxDefinition: defined, maxRepetition: repetition)
      leaves.append(leaf)
      elements.append { writer in
        writer.i32(1, leaf.physical.rawValue)
        writer.i32(3, 1)
        writer.string(4, name)
        switch kind {
        case .bool, .double: break
        case .int:
          writer.i32(6, 18)  // INT_64
          writer.structure(10) {
            $0.structure(10) {
              $0.byte(1, 64)
              $0.bool(2, true)
            }
          }
        case .date:
          writer.i32(6, 6)  // DATE
          writer.structure(10) { $0.structure(6) { _ in } }
        case .dateTime:
          writer.i32(6, 10)  // TIMESTAMP_MICROS
          writer.structure(10) {
            $0.structure(8) {
              $0.bool(1, true)
              $0.structure(2) { $0.structure(2) { _ in } }
            }
          }
        case .time:
          // TIME(MICROS), local: not adjusted to UTC, so no converted type (TIME_MICROS
          // means adjusted), as pyarrow writes `time64[us]`.
          writer.structure(10) {
            $0.structure(7) {
              $0.bool(1, false)
              $0.structure(2) { $0.structure(2) { _ in } }
            }
          }
        case .text:
          writer.i32(6, 0)  // UTF8
          writer.structure(10) { $0.structure(1) { _ in } }
        }
      }
      return .leaf(leaves.count - 1, level: defined)
    }
  }
}
