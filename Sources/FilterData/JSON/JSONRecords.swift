import FilterDSL

/// Reading JSON records: tallying their shapes to infer a schema, and decoding them into
/// values by slot, following a ``RecordLayout``.
extension JSONScanner {
  // MARK: Inference

  /// Tallies the object at the cursor into `record`.
  mutating func tally(record: inout RecordTally, depth: Int) throws(DataProblem) {
    record.records += 1
    guard try enter(depth: depth, close: 0x7D) else { return }
    var position = 0
    repeat {
      skipSpace()
      guard peek == 0x22 else { throw unexpected("a key in quotes") }
      let slot: Int
      if let (guessed, close) = record.guessedField(bytes, at: index, end: end, position: position)
      {
        // The key found here in the record before, as it was written then.
        slot = guessed
        index = close + 1
      } else {
        slot = record.field(try string(), position: position)
      }
      position += 1
      try expect(0x3A, "':' after the key")
      try tally(value: &record.tallies[slot], depth: depth + 1)
    } while try next(close: 0x7D)
  }

  /// Tallies the value at the cursor into `tally`.
  mutating func tally(value tally: inout TypeTally, depth: Int) throws(DataProblem) {
    skipSpace()
    guard let byte = peek else { throw .truncated(index, "the input ends where a value belongs") }
    switch byte {
    case 0x22:
      // A short text seen before adds what it added then.
      let short = shortSpelling()
      if let (spelling, stop) = short, tally.addAgain(spelling) {
        index = stop
        return
      }
      let before = tally.stringCounts
      let (start, stop, simple) = try scanString()
      if simple, let nulls, nulls.isNamed(self.bytes, start, stop) {
        tally.nulls += 1
      } else if simple, let nulls, nulls.isUsual(self.bytes, start, stop) {
        tally.add(nullText: String(decoding: self.bytes[start..<stop], as: UTF8.self))
      } else {
        var copy = self
        copy.index = start - 1
        let bytes = try copy.stringBytes()
        tally.add(string: String(decoding: bytes, as: UTF8.self))
        tally.add(spelling: bytes)
      }
      if let (spelling, _) = short { tally.remember(spelling, since: before) }
    case 0x7B:
      tally.records += 1
      try self.tally(record: &tally.fields, depth: depth)
    case 0x5B:
      tally.lists += 1
      try tally.withElement { (element: inout TypeTally) throws(DataProblem) in
        try container(depth: depth, close: 0x5D) {
          (scanner: inout JSONScanner) throws(DataProblem) in
          try scanner.tally(value: &element, depth: depth + 1)
        }
      }
    default:
      let start = index
      switch try scalar() {
      case .null: tally.nulls += 1
      case .bool: tally.bools += 1
      case let number: tally.add(number: number, bytes, start, index)
      }
    }
  }

  /// A number or literal at the cursor.
  mutating func scalar() throws(DataProblem) -> Value {
    guard let byte = peek else { throw .truncated(index, "the input ends where a value belongs") }
    switch byte {
    case 0x2D, 0x30...0x39: return try number()
    case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): return try literal()
    default: throw unexpected("a value")
    }
  }

  // MARK: Decoding

  /// The object at the cursor as values in `layout`'s slot order. Keys not in the layout, and
  /// fields it does not need, are checked and skipped; a repeated key keeps its last value.
  mutating func record(_ layout: RecordLayout, depth: Int) throws(DataProblem) -> [Value] {
    var values = [Value](repeating: .null, count: layout.width)
    try fields(layout, depth: depth) {
      (scanner: inout JSONScanner, layout, slot) throws(DataProblem) in
      values[slot] = try scanner.value(layout, slot, depth: depth + 1)
    }
    return values
  }

  /// Reads the object at the cursor as ``record(_:depth:)`` does, reporting what does not fit
  /// the schema, but keeping no value: for looking ahead, where a row as wide as the schema
  /// for every record looked at (as many records as fields) was quadratic in the fields.
  mutating func check(_ layout: RecordLayout, depth: Int) throws(DataProblem) {
    try fields(layout, depth: depth) {
      (scanner: inout JSONScanner, layout, slot) throws(DataProblem) in
      _ = try scanner.value(layout, slot, depth: depth + 1)
    }
  }

  /// The record at the cursor read into the cells of `rows`, by slot: a field whose coded
  /// column has seen its value spelled so before takes that value's code, scanned but not
  /// decoded; the others are decoded as ``record(_:depth:)`` decodes them, with where they
  /// were spelled.
  mutating func record(_ layout: RecordLayout, into rows: inout ColumnRows) throws(DataProblem) {
    // (The loop kept small, what is met less often in functions of their own: grown past the
    // inliner's limit, it called ``shortSpelling()`` instead of inlining it, a sixth of the
    // load's time more.)
    try fields(layout, depth: 0) {
      (scanner: inout JSONScanner, layout, slot) throws(DataProblem) in
      scanner.skipSpace()
      // A short value (text, a number) found at once, its words read while finding its end.
      if let (spelling, end) = scanner.shortSpelling(),
        rows.put(spelled: .short(spelling), slot: slot) != nil
      {
        scanner.index = end
        return
      }
      // A number for a field of numbers, put straight into its column if it keeps them (as
      // ``value(_:_:depth:)`` reads it: an integer, or a decimal for a field of decimals).
      if layout.isNumber(slot), let byte = scanner.peek, byte == 0x2D || byte &- 0x30 < 10,
        scanner.put(number: &rows, slot: slot)
      {
        return
      }
      try scanner.put(value: &rows, layout, slot)
    }
  }

  /// Puts the number at the cursor in column `slot` of `rows`, if the column keeps such
  /// numbers (see ``ColumnRows/put(number:slot:)``), and moves past it; false otherwise, the
  /// cursor where it was.
  @inline(never)
  private mutating func put(number rows: inout ColumnRows, slot: Int) -> Bool {
    let saved = (index, newlines, lineStart)
    if let number = try? scalar(), rows.put(number: number, slot: slot) { return true }
    (index, newlines, lineStart) = saved
    return false
  }

  /// Puts the value at the cursor in column `slot` of `rows` (see ``record(_:into:)``): a
  /// small object or list by its spelling, if its column has seen it so spelled; any other
  /// value decoded, in the record's cells.
  @inline(never)
  private mutating func put(value rows: inout ColumnRows, _ layout: RecordLayout, _ slot: Int)
    throws(DataProblem)
  {
    let saved = (index, newlines, lineStart)
    // A small object or list found by its brackets, or any value by a full scan.
    if let stop = containerEnd() {
      index = stop
    } else if !rows.remembersSpellings(slot: slot) || (try? skipValue(depth: 1)) == nil {
      index = saved.0
    }
    if index > saved.0,
      let code = rows.put(
        spelled: .bytes(
          UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[saved.0..<index]))),
        slot: slot)
    {
      // (A code's value is never null: only a nested record may hold keys with null, and
      // only if its text may. The value is not fetched otherwise: a retain and a release.)
      if layout.isRecord(slot), JSONPresence.mayHaveNull(bytes, from: saved.0, to: index) {
        try noteNulls(rows.value(ofCode: code, slot: slot), layout, slot, from: saved.0, &rows)
      }
      return
    }
    (index, newlines, lineStart) = saved
    let value = try self.value(layout, slot, depth: 1)
    rows.set(slot, value, spelled: saved.0..<index)
    try noteNulls(value, layout, slot, from: saved.0, &rows)
  }

  /// Notes the keys present with null in field `slot`, whose value (just read, from `start`
  /// on) is `value`: the field itself, or keys of its nested records (for `exists`).
  private func noteNulls(
    _ value: Value, _ layout: RecordLayout, _ slot: Int, from start: Int, _ rows: inout ColumnRows
  ) throws(DataProblem) {
    if value.isNull {
      rows.nullSlots.append(slot)
    } else if case .record(let inner) = value, inner.contains(where: Value.holdsNull),
      case .record(let nested) = layout.schema.fields[slot].type,
      JSONPresence.mayHaveNull(bytes, from: start, to: index)
    {
      var again = self
      again.index = start
      try JSONPresence.nullPaths(
        &again, inner, nested, prefix: [layout.schema.fields[slot].name], depth: 1,
        into: &rows.nullPaths)
    }
  }

  /// Walks the object at the cursor, calling `field` with the cursor at each value of a field
  /// `layout` decodes (and the layout and its slot). A key the schema lacks is reported, for
  /// the reader to add a field (while it adds them); other keys are checked and skipped.
  /// (`field` is handed the layout rather than capturing it: captured, it was retained and
  /// released for every record.)
  private mutating func fields(
    _ layout: RecordLayout, depth: Int,
    _ field: (inout JSONScanner, RecordLayout, Int) throws(DataProblem) -> Void
  ) throws(DataProblem) {
    // (A loop, not ``container(depth:close:_:)``: its closure retained and released the
    // layout for every field.)
    guard try enter(depth: depth, close: 0x7D) else { return }
    var position = 0
    repeat {
      skipSpace()
      guard peek == 0x22 else { throw unexpected("a key in quotes") }
      let (start, stop, simple): (Int, Int, Bool)
      let slot: Int?
      if let (guess, close) = layout.guessedSlot(bytes, at: index, end: end, position: position) {
        // The key found here last time, as it was written then.
        (start, stop, simple, slot) = (index + 1, close, true, guess)
        index = close + 1
      } else {
        (start, stop, simple) = try scanString()
        slot =
          simple
          ? layout.slot(bytes, start, stop, position: position)
          : layout.slot(decoded: Array(try decodedKey(start, stop)))
      }
      position += 1
      let keyPlace = (offset: start - 1, newlines: newlines, lineStart: lineStart)
      if index < end && bytes[index] == 0x3A {
        index += 1
      } else {
        try expect(0x3A, "':' after the key")
      }
      if let slot, slot < layout.width, layout.isNeeded(slot) {
        try field(&self, layout, slot)
      } else if slot == nil && layout.growth.acceptsNewFields {
        // A key the schema lacks: a new field, once the reader has grown its schema.
        let key =
          simple
          ? String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<stop]), as: UTF8.self)
          : String(try decodedKey(start, stop))
        try reportGrowth(layout.prefix + [key], layout, at: keyPlace, depth: depth + 1)
      } else {
        try skipValue(depth: depth + 1)
      }
    } while try next(close: 0x7D)
  }

  /// A key with escapes, decoded.
  func decodedKey(_ start: Int, _ stop: Int) throws(DataProblem) -> String.UTF8View {
    var copy = self
    copy.index = start - 1
    return try copy.string().utf8
  }

  /// The value at the cursor for field `slot` of `layout`, converted to the field's type. A
  /// value that does not fit is reported, for the reader to widen the field, and is null
  /// until it does.
  mutating func value(_ layout: RecordLayout, _ slot: Int, depth: Int) throws(DataProblem)
    -> Value
  {
    skipSpace()
    let start = index
    let type = layout.types[slot]
    if peek == 0x22, !layout.growth.fixed.isEmpty, layout.prefix.isEmpty,
      layout.growth.fixed.contains(layout.schema.fields[slot].name),
      let value = try fixedText(type)
    {
      return value
    }
    index = start
    if type == .string, peek == 0x7B || peek == 0x5B,
      layout.growth.fixed.contains(layout.schema.fields[slot].name)
    {
      // (A list or an object in a field the user made text: its JSON text.)
      try skipValue(depth: depth)
      return .string(
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }
    if let value = try value(type, nested: layout.nested[slot], depth: depth) { return value }
    index = start
    try reportGrowth(layout.prefix + [layout.schema.fields[slot].name], layout, depth: depth)
    return .null
  }

  /// The text at the cursor as a number or boolean of a type the user fixed (`--type n=int`
  /// reads `"533"` as 533, as it reads a CSV cell), or nil (the cursor moved) for other types
  /// and texts that do not convert.
  private mutating func fixedText(_ type: ValueType) throws(DataProblem) -> Value? {
    guard type == .int || type == .double || type == .decimal || type == .bool else { return nil }
    let (start, stop, simple) = try scanString()
    guard simple else { return nil }
    switch type {
    // (Leading zeros too, as `int("004")` reads them.)
    case .int: return NumberText.integer(leadingZeros: bytes, start, stop).map(Value.int)
    case .decimal: return NumberText.exactDecimal(bytes, start, stop).map(Value.decimal)
    case .double:
      if let integer = NumberText.integer(leadingZeros: bytes, start, stop) { return .int(integer) }
      return NumberText.decimal(bytes, start, stop).map(Value.double)
    default:
      let text = bytes[start..<stop]
      if text.elementsEqual("true".utf8) { return .bool(true) }
      if text.elementsEqual("false".utf8) { return .bool(false) }
      return nil
    }
  }

  /// Reports the value at the cursor as one that needs the field at `path` to grow, with its
  /// type, and moves past it.
  mutating func reportGrowth(
    _ path: [String], _ layout: RecordLayout,
    at place: (offset: Int, newlines: Int, lineStart: Int)? = nil, depth: Int
  ) throws(DataProblem) {
    skipSpace()
    let at = place ?? (index, newlines, lineStart)
    var found = TypeTally()
    try tally(value: &found, depth: depth)
    layout.growth.report(
      path, found: found.type, offset: at.offset, newlines: at.newlines, lineStart: at.lineStart)
  }

  /// The value at the cursor as a `type`, or nil (after skipping it) when it is not one.
  private mutating func value(_ type: ValueType, nested: RecordLayout?, depth: Int)
    throws(DataProblem) -> Value?
  {
    guard let byte = peek else { throw .truncated(index, "the input ends where a value belongs") }
    if type == .any { return try anyValue(depth: depth) }
    switch byte {
    case 0x22:
      if type == .string && nulls?.namesAny != true { return .string(try string()) }
      let (start, stop, simple) = try scanString()
      // Texts the user named are null in any field.
      if simple, nulls?.isNamed(bytes, start, stop) == true { return .null }
      let value: Value?
      switch type {
      case .string:
        return .string(
          simple
            ? String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<stop]), as: UTF8.self)
            : try decode(start, stop))
      case .date, .dateTime:
        try text(start, stop, simple: simple)
        value = Value.isoDate(scratch).flatMap { $0.isOfType(type) ? $0 : nil }
      case .time:
        try text(start, stop, simple: simple)
        value = Value.isoTime(scratch).map(Value.time)
      case .duration:
        try text(start, stop, simple: simple)
        value = Value.duration(scratch).map(Value.duration)
      default:
        value = nil
      }
      // The usual ones (`NA`) are null where the field is not text, as in CSV.
      if value == nil, simple, nulls?.isUsual(bytes, start, stop) == true { return .null }
      return value
    case 0x7B:
      guard case .record = type, let nested else { break }
      return .record(try record(nested, depth: depth))
    case 0x5B:
      guard case .list(let element) = type else { break }
      var items: [Value] = []
      var misfit = false
      try container(depth: depth, close: 0x5D) { (scanner: inout JSONScanner) throws(DataProblem) in
        scanner.skipSpace()
        if let item = try scanner.value(element, nested: nested, depth: depth + 1) {
          // (Room for a few at once: growing one by one allocated three times for four.)
          if items.isEmpty { items.reserveCapacity(4) }
          items.append(item)
        } else {
          misfit = true
        }
      }
      return misfit ? nil : .list(items)
    default:
      let start = index
      let scalar = try scalar()
      switch (scalar, type) {
      case (.null, _), (.bool, .bool), (.int, .int), (.int, .double), (.double, .double):
        return scalar
      case (.int, .decimal), (.double, .decimal):
        // Exact, from the number's own digits (`--type price=decimal`).
        return NumberText.exactDecimal(bytes, start, index).map(Value.decimal)
      case (_, .string):
        // Mixed columns are text: numbers and booleans keep their JSON spelling.
        return .string(
          String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
      default:
        return nil
      }
    }
    try skipValue(depth: depth)
    return nil
  }

  /// The value at the cursor in a field of mixed values, each of its own kind: text (null
  /// where the user or the file's marker says), numbers (integers; beyond 64 bits exact
  /// decimals while they fit, else doubles), true or false, lists of such values, objects.
  private mutating func anyValue(depth: Int) throws(DataProblem) -> Value {
    guard let byte = peek else { throw .truncated(index, "the input ends where a value belongs") }
    switch byte {
    case 0x22:
      let (start, stop, simple) = try scanString()
      if simple, nulls?.isNamed(bytes, start, stop) == true { return .null }
      return .string(
        simple
          ? String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<stop]), as: UTF8.self)
          : try decode(start, stop))
    case 0x7B:
      var keys: [String] = []
      var values: [Value] = []
      try container(depth: depth, close: 0x7D) { (scanner: inout JSONScanner) throws(DataProblem) in
        scanner.skipSpace()
        guard scanner.peek == 0x22 else { throw scanner.unexpected("a key in quotes") }
        let key = try scanner.string()
        try scanner.expect(0x3A, "':' after the key")
        scanner.skipSpace()
        let value = try scanner.anyValue(depth: depth + 1)
        // (A repeated key keeps its last value, as records do.)
        if let known = keys.firstIndex(of: key) {
          values[known] = value
        } else {
          keys.append(key)
          values.append(value)
        }
      }
      return .object(ObjectValue(keys: keys, values: values))
    case 0x5B:
      var items: [Value] = []
      try container(depth: depth, close: 0x5D) { (scanner: inout JSONScanner) throws(DataProblem) in
        scanner.skipSpace()
        items.append(try scanner.anyValue(depth: depth + 1))
      }
      return .list(items)
    default:
      let start = index
      let scalar = try scalar()
      guard case .double = scalar, NumberText.isWideInteger(bytes, start, index) else {
        return scalar
      }
      return NumberText.exactDecimal(bytes, start, index).map(Value.decimal) ?? scalar
    }
  }

  /// How a value starting with `byte` is named in messages.
  static func kind(of byte: UInt8) -> String {
    switch byte {
    case 0x22: "text"
    case 0x7B: "an object"
    case 0x5B: "a list"
    case UInt8(ascii: "t"), UInt8(ascii: "f"): "true or false"
    case UInt8(ascii: "n"): "null"
    default: "a number"
    }
  }
}

extension Value {
  /// Whether this value is of `type` (for the scalar types).
  func isOfType(_ type: ValueType) -> Bool {
    switch (self, type) {
    case (.date, .date), (.dateTime, .dateTime), (.string, .string), (.bool, .bool),
      (.int, .int), (.double, .double):
      true
    default: false
    }
  }
}
