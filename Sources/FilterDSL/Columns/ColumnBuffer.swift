/// One column being built: the buffer of its current form, which changes as values demand.
struct ColumnBuffer: Sendable {
  enum Kind: Sendable { case undecided, int, double, coded, values }
  private var kind = Kind.undecided
  private(set) var count = 0
  private var ints: [Int64] = []
  private var doubles: [Double] = []
  private var codes = Codes()
  private var values: [Value] = []
  private var nulls = NullMask()
  private var dictionary = Column.Dictionary()
  /// For a coded column: the code of each distinct value, by a hash equal values share
  /// (``ValueHash/of(_:)-(Value)``).
  private var codeOf = MemoSlots()
  /// The codes of the values by the bytes a file spelled them with (see ``SpellingMemo``).
  private var spellings = SpellingMemo()
  /// Whether a row was replaced: a coded column finds its first rows again, and values kept
  /// since look for the form they need.
  private var replacedCodes = false

  /// For a column whose rows join another builder's (see ``append(rowsOf:)``): by code, the
  /// code of the same value there; and the join in which each was last checked (once per
  /// join: the other builder may have been copied or replaced since).
  private var joinedCodes: [UInt32] = []
  private var checkedIn: [UInt32] = []
  private var joins: UInt32 = 0

  /// How many distinct values the column codes (see ``ColumnBuilder/codedLimit``).
  private let codedLimit: Int
  /// How many rows to make room for, in the buffer of the column's form.
  private var reserved = 0

  /// A column of `count` nulls.
  init(nulls count: Int, codedLimit: Int) {
    self.count = count
    self.codedLimit = codedLimit
  }

  /// A column of `values`, each in the form it needs.
  init(_ values: [Value], codedLimit: Int) {
    self.codedLimit = codedLimit
    for value in values { append(value) }
  }

  /// How many distinct values the column codes (0 when it is not coded).
  var codedValues: Int { kind == .coded ? dictionary.values.count : 0 }

  /// The column built.
  var storage: Column.Storage {
    switch kind {
    case .undecided:
      var mask = NullMask()
      for row in 0..<count { mask.set(row, null: true) }
      return .int(Array(repeating: 0, count: count), mask)
    case .int: return .int(ints, nulls)
    case .double: return .double(doubles, nulls)
    case .coded:
      guard replacedCodes else { return .coded(codes, dictionary) }
      var found = dictionary
      found.firstRows = [Int](repeating: -1, count: found.firstRows.count)
      for row in 0..<codes.count {
        let code = Int(codes[row])
        if code != 0 && found.firstRows[code] < 0 { found.firstRows[code] = row }
      }
      return .coded(codes, found)
    case .values: return .values(values)
    }
  }

  /// Appends the rows of `part` (another builder's column) and leaves it with none (see
  /// ``ColumnBuilder/append(rowsOf:)``).
  mutating func append(rowsOf part: inout ColumnBuffer) {
    defer { part.removeRows() }
    var joined = 0
    switch (kind, part.kind) {
    case (.int, .int):
      nulls.append(part.nulls, at: count)
      ints += part.ints
      (joined, count) = (part.count, count + part.count)
    case (.double, .double):
      nulls.append(part.nulls, at: count)
      doubles += part.doubles
      (joined, count) = (part.count, count + part.count)
    case (.coded, .coded):
      joined = appendCodes(of: &part)
    default:
      break
    }
    guard joined < part.count else { return }
    let rest = Column(storage: part.storage)
    for row in joined..<part.count { append(rest.value(at: row)) }
  }

  /// Appends the codes of `part`'s rows as this column's codes, each distinct one looked up
  /// once, up to a value that is not coded here (the rest are appended as values).
  private mutating func appendCodes(of part: inout ColumnBuffer) -> Int {
    part.joins &+= 1
    if part.joins == 0 { part.joins = 1 }
    let join = part.joins
    let distinct = part.dictionary.values.count
    if part.joinedCodes.count < distinct {
      part.joinedCodes += repeatElement(0, count: distinct - part.joinedCodes.count)
      part.checkedIn += repeatElement(0, count: distinct - part.checkedIn.count)
    }
    // Each distinct code checked in at its first row (a value new here takes its code there),
    // up to a value that is not coded here; then the codes before it mapped all at once.
    // (No `reserveCapacity` here: reserving exactly, join after join, would copy the codes
    // once per join where the room made ahead runs out.)
    var limit = part.codes.count
    part.codes.withBuffer(checkIn, checkIn, checkIn)
    func checkIn<T: FixedWidthInteger>(_ partCodes: UnsafeBufferPointer<T>) {
      for row in partCodes.indices {
        let index = Int(partCodes[row])
        guard part.checkedIn[index] != join else { continue }
        let value = part.dictionary.values[index]
        let guess = Int(part.joinedCodes[index])
        if guess >= dictionary.values.count || dictionary.values[guess] != value {
          guard fitsCoded(value) else {
            limit = row
            return
          }
          part.joinedCodes[index] = code(of: value, row: count + row)
        }
        part.checkedIn[index] = join
      }
    }
    codes.append(part.codes, upTo: limit, mappedBy: part.joinedCodes)
    count += limit
    return limit
  }

  /// The code of the value spelled `spelling`, if the column is coded and has seen it so
  /// spelled (see ``noteSpelling(_:)``).
  /// The value a code stands for (null for a code this column has not given).
  func value(ofCode code: UInt32) -> Value {
    Int(code) < dictionary.values.count ? dictionary.values[Int(code)] : .null
  }

  @inline(__always)
  func code(spelled spelling: Spelling) -> UInt32? {
    kind == .coded ? spellings.code(of: spelling) : nil
  }

  /// Puts in row `row` (replacing its code, or after the rows before it) the value spelled
  /// `spelling`, by its code, if the column is coded and has seen it so spelled; returns
  /// the code, or nil (and changes nothing).
  @inline(__always)
  mutating func put(spelled spelling: Spelling, row: Int) -> UInt32? {
    guard let code = code(spelled: spelling) else { return nil }
    if row < count {
      set(row, code: code)
    } else {
      pad(to: row)
      append(code: code)
    }
    return code
  }

  /// Whether the column keeps codes.
  var isCoded: Bool { kind == .coded }

  /// Appends a row of code `code`, one of ``code(spelled:)``'s answers.
  mutating func append(code: UInt32) {
    codes.append(code)
    count += 1
  }

  /// Sets row `row`'s code to `code`, one of ``code(spelled:)``'s answers.
  mutating func set(_ row: Int, code: UInt32) {
    guard kind == .coded, row >= 0, row < count else { return }
    codes.set(row, code)
    // The row may have been the first of its old value: found again when finished.
    replacedCodes = true
  }

  /// Removes the rows from `row` on, in a coded column or one of numbers (what was put in a
  /// row not kept: see ``ColumnBuilder/dropRow()``); other columns have no rows past the last
  /// one appended.
  mutating func removeRows(from row: Int) {
    guard row >= 0, row < count else { return }
    switch kind {
    case .coded: codes.removeLast(count - row)
    case .int: ints.removeLast(count - row)
    case .double: doubles.removeLast(count - row)
    case .undecided, .values: return
    }
    for removed in row..<count { nulls.set(removed, null: false) }
    count = row
  }

  /// Puts `value`, a number, in row `row` (see ``put(spelled:row:)``), when the column keeps
  /// numbers of its kind: an integer in a column of integers, a decimal (or an integer it
  /// holds exactly) in one of decimals. False otherwise, having changed nothing: the caller
  /// puts it as any value is put.
  mutating func put(number value: Value, row: Int) -> Bool {
    switch (kind, value) {
    case (.int, .int), (.double, .double): break
    case (.double, .int(let i)) where Double(exactly: i) != nil: break
    default: return false
    }
    if row < count {
      set(row, value)
    } else {
      pad(to: row)
      append(value)
    }
    return true
  }

  /// Notes that the value of the last row was spelled `spelling`.
  mutating func noteSpelling(_ spelling: UnsafeRawBufferPointer) {
    guard kind == .coded, let code = codes.last, code != 0 else { return }
    spellings.note(spelling, code: code)
  }

  /// Forgets the spellings noted: they may no longer spell the same values.
  mutating func forgetSpellings() { spellings.removeAll() }

  /// Removes every row, keeping the form and the distinct values seen (see
  /// ``ColumnBuilder/removeRows()``).
  mutating func removeRows() {
    count = 0
    ints.removeAll(keepingCapacity: true)
    doubles.removeAll(keepingCapacity: true)
    codes.removeAll()
    values.removeAll(keepingCapacity: true)
    nulls = NullMask()
    // (The first rows of the distinct values are gone: found again if this column is built.)
    if kind == .coded { replacedCodes = true }
  }

  /// Makes room for `rows` rows in the buffer of the column's form (and of the form it
  /// takes later).
  mutating func reserve(_ rows: Int) {
    reserved = rows
    switch kind {
    case .undecided: break
    case .int: ints.reserveCapacity(rows)
    case .double: doubles.reserveCapacity(rows)
    case .coded: codes.reserveCapacity(rows)
    case .values: values.reserveCapacity(rows)
    }
  }

  /// Appends nulls up to row `row`.
  mutating func pad(to row: Int) {
    while count < row { append(.null) }
  }

  mutating func append(_ value: Value) {
    if kind == .undecided {
      if value.isNull {
        count += 1
        return
      }
      decide(for: value)
    }
    switch (kind, value) {
    case (.int, .int(let i)):
      ints.append(i)
    case (.int, .null):
      nulls.set(ints.count, null: true)
      ints.append(0)
    case (.double, .double(let d)):
      doubles.append(d)
    case (.double, .int(let i)) where Double(exactly: i) != nil:
      doubles.append(Double(i))
    case (.double, .null):
      nulls.set(doubles.count, null: true)
      doubles.append(0)
    case (.coded, _) where fitsCoded(value):
      codes.append(code(of: value, row: codes.count))
    case (.values, _):
      values.append(value)
    default:
      widen(for: value)
      append(value)
      return
    }
    count += 1
  }

  mutating func set(_ row: Int, _ value: Value) {
    guard row >= 0, row < count else { return }
    switch (kind, value) {
    case (.int, .int(let i)):
      ints[row] = i
      nulls.set(row, null: false)
    case (.int, .null):
      ints[row] = 0
      nulls.set(row, null: true)
    case (.double, .double(let d)):
      doubles[row] = d
      nulls.set(row, null: false)
    case (.double, .int(let i)) where Double(exactly: i) != nil:
      doubles[row] = Double(i)
      nulls.set(row, null: false)
    case (.double, .null):
      doubles[row] = 0
      nulls.set(row, null: true)
    case (.coded, _) where fitsCoded(value):
      codes.set(row, code(of: value, row: row))
      // The row may have been the first of its old value: found again when finished.
      replacedCodes = true
    case (.values, _):
      values[row] = value
    default:
      // The values no longer fit this form: keep them as values (``conform(to:)`` finds the
      // form they need once, at the end).
      values = allValues
      values[row] = value
      kind = .values
      replacedCodes = true
      (ints, doubles, codes, nulls, dictionary, codeOf) = (
        [], [], Codes(), NullMask(), .init(), MemoSlots()
      )
    }
  }

  /// Takes the form `type` reads best, where the values allow it.
  mutating func conform(to type: ValueType) {
    if kind == .values, replacedCodes {
      // (Values kept since a row was replaced may all have one type again.)
      let typed = ColumnBuffer(values, codedLimit: codedLimit)
      if typed.kind != .values { self = typed }
    }
    switch (type, kind) {
    case (.double, .int),
      (.double, .coded) where holdsIntegers:
      let all = allValues
      self = ColumnBuffer(nulls: 0, codedLimit: codedLimit)
      decide(for: .double(0))
      for value in all { append(value) }
    case (.int, .int), (.double, .double), (_, .values), (_, .undecided):
      break
    case (_, .coded) where codedFits(type):
      break
    default:
      values = allValues
      kind = .values
      (ints, doubles, codes, nulls, dictionary, codeOf) = (
        [], [], Codes(), NullMask(), .init(), MemoSlots()
      )
    }
  }

  /// Whether a coded column's values (they all have one kind) are of `type`.
  private func codedFits(_ type: ValueType) -> Bool {
    guard kind == .coded, dictionary.values.count > 1 else { return false }
    switch (dictionary.values[1], type) {
    case (.int, .int), (.string, .string), (.bool, .bool), (.date, .date),
      (.dateTime, .dateTime), (.time, .time), (.duration, .duration), (.list, .list),
      (.record, .record):
      return true
    default:
      return false
    }
  }

  /// Whether the column holds integers (and nulls), flat or coded.
  private var holdsIntegers: Bool { kind == .int || codedFits(.int) }

  private var allValues: [Value] {
    let column = Column(storage: storage)
    return (0..<count).map { column.value(at: $0) }
  }

  private mutating func decide(for value: Value) {
    let nullRows = count
    count = 0
    switch value {
    case .double: kind = .double
    case .string, .bool: kind = .coded
    case .int: kind = codedLimit > 0 ? .coded : .int
    case .null: kind = .values
    default: kind = codedLimit > 0 ? .coded : .values
    }
    reserve(reserved)
    for _ in 0..<nullRows { append(.null) }
  }

  /// Changes the form so that `value` fits: coded integers to flat ones past
  /// `codedLimit` distinct values, integers to decimals for a decimal (if every one is
  /// exact as a decimal), anything else to values.
  private mutating func widen(for value: Value) {
    let all = allValues
    let target: Kind
    switch value {
    case .int where holdsIntegers: target = .int
    case .double
    where holdsIntegers
      && all.allSatisfy({ if case .int(let i) = $0 { Double(exactly: i) != nil } else { true } }):
      target = .double
    default: target = .values
    }
    let reserved = reserved
    self = ColumnBuffer(nulls: 0, codedLimit: codedLimit)
    kind = target
    reserve(Swift.max(reserved, all.count))
    for value in all { append(value) }
  }

  /// The code of `value` (not null), when the column has it.
  private func known(_ value: Value, hash: UInt64? = nil) -> UInt32? {
    codeOf.find(hash ?? ValueHash.of(value)) { code in
      Int(code) < dictionary.values.count && dictionary.values[Int(code)] == value
    }
  }

  private func fitsCoded(_ value: Value) -> Bool {
    if value.isNull { return true }
    // (A code is 32 bits: past that many distinct values, the column keeps values.)
    guard dictionary.values.count < Int(UInt32.max) else { return known(value) != nil }
    // One kind of value per column. Text and true-or-false values are always coded; other
    // kinds while they have at most `codedLimit` distinct values.
    switch (value, dictionary.values.count > 1 ? dictionary.values[1] : value) {
    case (.string, .string), (.bool, .bool): return true
    case (.int, .int), (.date, .date), (.dateTime, .dateTime), (.time, .time),
      (.duration, .duration), (.list, .list), (.record, .record):
      return dictionary.values.count <= codedLimit || known(value) != nil
    default: return false
    }
  }

  private mutating func code(of value: Value, row: Int) -> UInt32 {
    if value.isNull { return 0 }
    let hash = ValueHash.of(value)
    if let code = known(value, hash: hash) { return code }
    let code = UInt32(truncatingIfNeeded: dictionary.values.count)
    codeOf.insert(code, hash: hash)
    dictionary.values.append(value)
    dictionary.firstRows.append(row)
    return code
  }
}
