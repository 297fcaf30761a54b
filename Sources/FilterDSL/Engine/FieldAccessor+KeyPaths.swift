/// Fields declared by key path, read in place when the key path names a stored property of a
/// struct (see `StoredField`).
extension FieldAccessor {
  // Key-path forms: `.int("price", \.price)`. A key path to a stored property of a struct is
  // read in place, at the property's offset in the record: no record is copied to read it,
  // which makes these the fastest readers for a batch (`filter.filter(records)`). Any other
  // key path (a computed property, a class) is applied on every read, which is several times
  // slower than a closure.

  /// An integer field read through a key path.
  @inlinable
  public static func int(_ name: String, _ keyPath: KeyPath<Root, Int> & Sendable) -> Self {
    guard let read = StoredField(keyPath) else {
      return .int(name) { $0[keyPath: keyPath] }
    }
    return Self(
      field: .init(name, .int), reader: .int { Int64(read.value(of: $0)) },
      selector: .int(read.select { Int64($0) }),
      operand: .int { record, _ in Int64(read.value(of: record)) })
  }

  /// A double field read through a key path.
  @inlinable
  public static func double(_ name: String, _ keyPath: KeyPath<Root, Double> & Sendable) -> Self {
    guard let read = StoredField(keyPath) else {
      return .double(name) { $0[keyPath: keyPath] }
    }
    return Self(
      field: .init(name, .double), reader: .double { read.value(of: $0) },
      selector: .double(read.select { $0 }),
      operand: .double { record, _ in read.value(of: record) }
    )
  }

  /// A text field read through a key path.
  @inlinable
  public static func string(
    _ name: String, knownValues: [String]? = nil, _ keyPath: KeyPath<Root, String> & Sendable
  ) -> Self {
    guard let read = StoredField(keyPath) else {
      return .string(name, knownValues: knownValues) { $0[keyPath: keyPath] }
    }
    return Self(
      field: .init(name, .string, knownValues: knownValues), reader: .string { read.value(of: $0) },
      selector: .string(read.select { $0 }),
      operand: .string { record, _ in read.value(of: record) }
    )
  }

  /// A true-or-false field read through a key path.
  @inlinable
  public static func bool(_ name: String, _ keyPath: KeyPath<Root, Bool> & Sendable) -> Self {
    guard let read = StoredField(keyPath) else {
      return .bool(name) { $0[keyPath: keyPath] }
    }
    return Self(field: .init(name, .bool), reader: .bool { read.value(of: $0) })
  }
}

/// A stored property of a struct `Root`, read at its offset in the record's memory (as
/// `MemoryLayout.offset(of:)` documents): reading it copies the property, never the record.
@usableFromInline
struct StoredField<Root, Value>: Sendable {
  /// The property's offset from the record's start, from `MemoryLayout<Root>.offset(of:)`.
  @usableFromInline let offset: Int

  /// The property `keyPath` names, if it is a stored property of a struct (nil for a
  /// computed one, or one of a class).
  @inlinable init?(_ keyPath: KeyPath<Root, Value>) {
    guard let offset = MemoryLayout<Root>.offset(of: keyPath) else { return nil }
    self.offset = offset
  }

  /// The property's value in `record` (borrowed: its memory is read in place).
  @inlinable func value(of record: borrowing Root) -> Value {
    withUnsafeBytes(of: record) { $0.load(fromByteOffset: offset, as: Value.self) }
  }

  /// The batch loop: keeps the selected records whose property, as `convert`ed, passes `keep`;
  /// each property is read in the array's memory.
  @inlinable func select<T>(_ convert: @escaping @Sendable (Value) -> T)
    -> @Sendable ([Root], inout [Int], (T) -> Bool) -> Void
  {
    let offset = offset
    return { records, selection, keep in
      let (stride, count) = (MemoryLayout<Root>.stride, records.count)
      var kept = 0
      records.withUnsafeBytes { bytes in
        for index in selection where index >= 0 && index < count {
          if keep(convert(bytes.load(fromByteOffset: index * stride + offset, as: Value.self))) {
            selection[kept] = index
            kept += 1
          }
        }
      }
      selection.removeLast(selection.count - kept)
    }
  }
}
