import FilterDSL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a reader fills a record of a schema: the field names as bytes (to match keys without
/// making strings), their types, the layouts of nested records, and which fields to decode at
/// all. Fields no filter or sort key uses are checked but not decoded.
final class RecordLayout {
  let schema: Schema
  let names: [[UInt8]]
  let types: [ValueType]
  /// For a nested record field, or a list of records, the layout of those records.
  let nested: [RecordLayout?]
  /// Whether to decode each field; the others stay null. (By pointer, as ``lastSlot``.)
  private let neededFlags: UnsafeMutableBufferPointer<Bool>

  /// Whether to decode the field at `slot`.
  func isNeeded(_ slot: Int) -> Bool { slot >= 0 && slot < neededFlags.count && neededFlags[slot] }
  /// What kind of field is at each slot. (By pointer: asked for every value a reader takes
  /// by its code, where reading the field's type retained it.)
  private let kinds: UnsafeMutableBufferPointer<FieldKind>
  private enum FieldKind { case record, number, other }
  /// Whether the field at `slot` is a nested record.
  func isRecord(_ slot: Int) -> Bool { slot >= 0 && slot < kinds.count && kinds[slot] == .record }
  /// Whether the field at `slot` holds numbers: integers, or decimals (`.double`).
  func isNumber(_ slot: Int) -> Bool { slot >= 0 && slot < kinds.count && kinds[slot] == .number }
  /// How many slots a record's values have: up to the last field decoded (readers take the
  /// slots past the end as null). A file whose records each bring new keys has thousands of
  /// fields; a query that reads two of them keeps records of a few slots, not thousands.
  private(set) var width: Int
  /// The slot of each field name (the first field of that name).
  private let slots: [[UInt8]: Int]
  /// For each key position (as many as the fields), the slot the key at that position had
  /// last time, -1 before: records usually list their keys in the same order, so one
  /// comparison finds the slot. Held by pointer, so that reading it in the loop over every
  /// key is not an access of a class's stored array checked for exclusivity each time.
  private let lastSlot: UnsafeMutableBufferPointer<Int>
  /// Every field name's bytes, one after another, as written in quotes (a name with a quote,
  /// a backslash or a control character has an empty spelling: it is never written plainly),
  /// and where each starts: ``guessedSlot(_:at:end:position:)`` reads them without retaining
  /// an array per name.
  private let spellings: UnsafeMutableBufferPointer<UInt8>
  private let spellingStarts: UnsafeMutableBufferPointer<Int>
  /// The names on the way to these records: `["camera"]` for a nested one.
  let prefix: [String]
  /// Where values that do not fit the schema are reported.
  let growth: GrowthLog

  init(_ schema: Schema, prefix: [String] = [], growth: GrowthLog) {
    self.schema = schema
    names = schema.fields.map { Array($0.name.utf8) }
    types = schema.fields.map(\.type)
    nested = schema.fields.map { field in
      switch field.type {
      case .record(let inner), .list(.record(let inner)):
        RecordLayout(inner, prefix: prefix + [field.name], growth: growth)
      default: nil
      }
    }
    neededFlags = .allocate(capacity: schema.fields.count)
    neededFlags.initialize(repeating: true)
    kinds = .allocate(capacity: schema.fields.count)
    for (slot, field) in schema.fields.enumerated() {
      switch field.type {
      case .record: kinds.initializeElement(at: slot, to: .record)
      case .int, .double: kinds.initializeElement(at: slot, to: .number)
      default: kinds.initializeElement(at: slot, to: .other)
      }
    }
    width = schema.fields.count
    var slots: [[UInt8]: Int] = [:]
    for (slot, name) in names.enumerated() where slots[name] == nil { slots[name] = slot }
    self.slots = slots
    self.prefix = prefix
    self.growth = growth
    lastSlot = .allocate(capacity: names.count)
    lastSlot.initialize(repeating: -1)
    let plain = names.map(PlainKey.spelling)
    // (Eight bytes to spare, zeros, for ``PlainKey/close(of:count:in:at:end:)``'s last word.)
    let spelled = plain.reduce(0) { $0 + $1.count }
    spellings = .allocate(capacity: spelled + 8)
    spellings.initialize(repeating: 0)
    spellingStarts = .allocate(capacity: names.count + 1)
    var offset = 0
    for (slot, name) in plain.enumerated() {
      spellingStarts[slot] = offset
      for byte in name {
        spellings[offset] = byte
        offset += 1
      }
    }
    spellingStarts[names.count] = offset
  }

  deinit {
    lastSlot.deallocate()
    neededFlags.deallocate()
    kinds.deallocate()
    spellings.deallocate()
    spellingStarts.deallocate()
  }

  /// Decodes only the top-level fields called `fields` (all of a nested record's fields).
  func decodeOnly(_ fields: Set<String>?) {
    for (slot, field) in schema.fields.enumerated() {
      neededFlags[slot] = fields?.contains(field.name) ?? true
    }
    width = (neededFlags.lastIndex(of: true) ?? -1) + 1
  }

  /// The slot of the key in `bytes[start..<end]` found at `position` in its record.
  func slot(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, position: Int) -> Int? {
    let key = UnsafeBufferPointer(rebasing: bytes[start..<end])
    if position >= 0 && position < lastSlot.count {
      let guess = lastSlot[position]
      if guess >= 0 && guess < names.count && RecordLayout.equal(names[guess], key) {
        return guess
      }
    }
    guard let slot = slots[Array(key)] else { return nil }
    if position >= 0 && position < lastSlot.count { lastSlot[position] = slot }
    return slot
  }

  /// The slot of the key whose opening quote is at `quote` in `bytes` (which end at `end`),
  /// when it is the key found at `position` last time written plainly (no escapes): and
  /// where its closing quote is. Nil otherwise (the key is then scanned, and its slot looked
  /// up). The bytes of a plain name in quotes are that key, and nothing else: this answers
  /// what scanning and ``slot(_:_:_:position:)`` would, at the cost of one comparison.
  @inline(__always) func guessedSlot(
    _ bytes: UnsafeBufferPointer<UInt8>, at quote: Int, end: Int, position: Int
  ) -> (slot: Int, close: Int)? {
    guard position >= 0, position < lastSlot.count else { return nil }
    let guess = lastSlot[position]
    guard guess >= 0, guess < names.count else { return nil }
    guard let names = spellings.baseAddress else { return nil }
    let from = spellingStarts[guess]
    return PlainKey.close(
      of: names + from, count: spellingStarts[guess + 1] - from, in: bytes, at: quote, end: end
    ).map { (guess, $0) }
  }

  /// Whether `name` and `key` are the same bytes (one `memcmp`: the generic comparison of
  /// two collections took 5% of a load).
  private static func equal(_ name: [UInt8], _ key: UnsafeBufferPointer<UInt8>) -> Bool {
    guard name.count == key.count else { return false }
    return name.withUnsafeBufferPointer { bytes in
      guard let a = bytes.baseAddress, let b = key.baseAddress else { return true }
      return memcmp(a, b, key.count) == 0
    }
  }

  /// The slot of a key that had escapes, given decoded.
  func slot(decoded key: [UInt8]) -> Int? {
    slots[key]
  }
}

/// Values that did not fit the schema being read (of another type than their field's, or
/// under a key the schema lacks), with where they were: the reader widens its schema by them
/// and reads their records again.
final class GrowthLog {
  struct Growth {
    /// The names on the way to the field.
    var path: [String]
    /// The type of the value found.
    var found: ValueType
    /// The byte offset in the buffer being read, its line number, and the offset of the start
    /// of its line.
    var offset: Int
    var line: Int
    var lineStart: Int
  }

  /// The line number at which the record being read starts (set by the reader); a value's
  /// line is this plus the newlines the scanner passed within the record.
  var line = 1
  /// Whether keys the schema lacks become fields (else they are skipped): true while every
  /// field is decoded, false once a query says which fields it reads.
  var acceptsNewFields = true
  /// The values found since the reader last grew its schema.
  var pending: [Growth] = []
  /// Top-level fields whose type the user fixed (`--type`): they never grow; a value that
  /// does not fit is null, and counted here, with the first of each field.
  var fixed: Set<String> = []
  var failures: [String: (count: Int, first: Growth)] = [:]
  /// The failures not yet turned into warnings.
  var unreported: [Growth] = []
  /// How many values were reported (a reader takes a new ``mark`` only after one was: taking
  /// one for every record cost a copy of ``failures``).
  private(set) var reports = 0

  /// What the log holds at some point, to go back to (see ``rewind(to:)``).
  struct Mark {
    fileprivate let pending: Int
    fileprivate let failures: [String: (count: Int, first: Growth)]
    fileprivate let unreported: Int
  }

  var mark: Mark { Mark(pending: pending.count, failures: failures, unreported: unreported.count) }

  /// Forgets what was noted since `mark`: a record cut off by the end of the buffer is read
  /// again whole once more is read, and notes it all again then (at offsets into the new
  /// buffer).
  func rewind(to mark: Mark) {
    pending.removeLast(Swift.max(0, pending.count - mark.pending))
    unreported.removeLast(Swift.max(0, unreported.count - mark.unreported))
    failures = mark.failures
  }

  func report(
    _ path: [String], found: ValueType, offset: Int, newlines: Int, lineStart: Int
  ) {
    reports += 1
    let growth = Growth(
      path: path, found: found, offset: offset, line: line + newlines, lineStart: lineStart)
    guard path.count == 1, fixed.contains(path[0]) else {
      pending.append(growth)
      return
    }
    if let failure = failures[path[0]] {
      failures[path[0]] = (failure.count + 1, failure.first)
    } else {
      failures[path[0]] = (1, growth)
      unreported.append(growth)
    }
  }
}
