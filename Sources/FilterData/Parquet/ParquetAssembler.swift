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
///
/// The shape is flattened into ``nodes`` first, each with its first and last leaf, and each
/// leaf's levels and values taken out of its chunk, so that the loop per value reads arrays
/// and does not copy a chunk.
struct ParquetAssembler {
  /// A shape's node: its kind, its levels, its leaves (places among the field's leaves), and
  /// where its children are in ``children``.
  private struct Node {
    enum Kind { case value, optional, record, list }
    var kind: Kind
    var level = 0
    var repetition = 0
    var first = 0
    var last = 0
    var children: Range<Int> = 0..<0
  }

  private var nodes: [Node] = []
  private var children: [Int] = []
  /// By leaf: its levels, its values, its highest definition level, and its cursors.
  private var definitions: [[UInt8]] = []
  private var repetitions: [[UInt8]] = []
  private var leafValues: [[Value]] = []
  private var highest: [Int] = []
  private var entries: [Int] = []
  private var next: [Int] = []
  /// The file's place of the first leaf.
  private let offset: Int

  /// Reads the leaves `leaves` of the file's columns, whose chunks are `chunks`.
  init(_ chunks: [ParquetChunk], leaves: Range<Int>) {
    offset = leaves.lowerBound
    for chunk in chunks {
      definitions.append(chunk.definitions)
      repetitions.append(chunk.repetitions)
      leafValues.append(chunk.nestedValues())
      highest.append(chunk.column.maxDefinition)
    }
    entries = Array(repeating: 0, count: chunks.count)
    next = entries
  }

  /// The values of `rows` rows of a field of `shape`.
  mutating func values(_ shape: ParquetShape, rows: Int) throws(ParquetError) -> [Value] {
    let root = try flatten(shape)
    var out: [Value] = []
    let lead = nodes[root].first
    // (A row starts at an entry of its first leaf: no more are reserved than there are, the
    // rows a footer claims may be any number.)
    out.reserveCapacity(Swift.min(rows, repetitions[lead].count))
    for _ in 0..<rows {
      guard entries[lead] < repetitions[lead].count, repetitions[lead][entries[lead]] == 0
      else { throw Self.misfit }
      out.append(try value(root))
    }
    for leaf in entries.indices where entries[leaf] != definitions[leaf].count {
      throw Self.misfit
    }
    return out
  }

  private static let misfit = ParquetError("has levels that do not fit its schema")

  /// Adds `shape`'s nodes to ``nodes``; the index of its own.
  private mutating func flatten(_ shape: ParquetShape) throws(ParquetError) -> Int {
    var node: Node
    switch shape {
    case .value(let leaf):
      let local = leaf - offset
      guard local >= 0, local < definitions.count else { throw Self.misfit }
      node = Node(kind: .value, first: local, last: local)
    case .optional(let inner, let level), .list(let inner, let level, _):
      let child = try flatten(inner)
      node = Node(kind: .optional, level: level, first: nodes[child].first, last: nodes[child].last)
      if case .list(_, _, let repetition) = shape {
        (node.kind, node.repetition) = (.list, repetition)
      }
      node.children = children.count..<children.count + 1
      children.append(child)
    case .record(let fields):
      var indices: [Int] = []
      for field in fields { indices.append(try flatten(field)) }
      guard let first = indices.first, let last = indices.last else { throw Self.misfit }
      node = Node(kind: .record, first: nodes[first].first, last: nodes[last].last)
      node.children = children.count..<children.count + indices.count
      children += indices
    }
    nodes.append(node)
    return nodes.count - 1
  }

  /// The next value of node `index`.
  private mutating func value(_ index: Int) throws(ParquetError) -> Value {
    let node = nodes[index]
    switch node.kind {
    case .value:
      let leaf = node.first
      let entry = entries[leaf]
      guard entry < definitions[leaf].count, Int(definitions[leaf][entry]) == highest[leaf],
        next[leaf] < leafValues[leaf].count
      else { throw Self.misfit }
      entries[leaf] = entry + 1
      next[leaf] += 1
      return leafValues[leaf][next[leaf] - 1]
    case .optional:
      guard try definition(node.first) >= node.level else {
        try skip(node)
        return .null
      }
      return try value(children[node.children.lowerBound])
    case .record:
      var record: [Value] = []
      record.reserveCapacity(node.children.count)
      for child in node.children { record.append(try value(children[child])) }
      return .record(record)
    case .list:
      guard try definition(node.first) >= node.level else {
        try skip(node)
        return .list([])
      }
      let element = children[node.children.lowerBound]
      var list = [try value(element)]
      let lead = node.first
      while entries[lead] < repetitions[lead].count,
        Int(repetitions[lead][entries[lead]]) == node.repetition
      {
        list.append(try value(element))
      }
      return .list(list)
    }
  }

  /// The definition level of leaf `leaf`'s next entry.
  private func definition(_ leaf: Int) throws(ParquetError) -> Int {
    guard entries[leaf] < definitions[leaf].count else { throw Self.misfit }
    return Int(definitions[leaf][entries[leaf]])
  }

  /// Passes over the entry each of `node`'s leaves has for a null or an empty list above
  /// them (no value).
  private mutating func skip(_ node: Node) throws(ParquetError) {
    for leaf in node.first...node.last {
      guard entries[leaf] < definitions[leaf].count,
        Int(definitions[leaf][entries[leaf]]) < highest[leaf]
      else { throw Self.misfit }
      entries[leaf] += 1
    }
  }
}
