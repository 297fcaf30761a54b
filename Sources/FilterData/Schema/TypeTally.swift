import FilterDSL

/// What the values of one field looked like in the records seen so far: how many of each
/// kind, and for lists and nested records, the same for their elements and fields. The schema
/// is inferred from these counts.
///
/// A value, as ``RecordTally`` is: a sample is tallied into them in place, with no reference
/// counted or access checked per value (as classes, a third of the sample's time went to
/// retaining them and checking their properties' exclusive access).
struct TypeTally {
  var nulls = 0
  var bools = 0
  var ints = 0
  var doubles = 0
  /// Of the numbers, integers beyond 2^53, whose digits a double loses; and numbers no exact
  /// decimal holds (`1e300`). A field of numbers with the first and none of the second is a
  /// field of exact decimals, so that `12345678901234567890` keeps its digits everywhere.
  private var wideIntegers = 0
  private var beyondDecimals = 0
  var strings = 0
  var dates = 0
  var dateTimes = 0
  /// Texts that spell a time of day (`22:00`, `09:30:15.5`).
  var times = 0
  /// Texts that spell a duration (`45s`, `PT45S`).
  var durations = 0
  var lists = 0
  var records = 0
  /// Texts that usually stand for null (`NA`, `N/A`): null when the field's other values are
  /// not text, text when they are (see ``ReadOptions/usualNullTexts``).
  var nullTexts = 0
  private(set) var nullTextValues: Set<String> = []
  /// Texts that spell a number (`"533"`), and of those, decimals.
  private var numericStrings = 0
  private var decimalStrings = 0
  /// Texts that spell no number, while there are few of them.
  private var otherStrings: Set<String> = []
  /// The tally of every element of every list: none before the first list.
  private var elements: [TypeTally] = []
  /// The tally of the fields of nested records.
  var fields: RecordTally
  /// The distinct strings seen, while there are few of them (nil once there are many).
  private var distinct: Set<String>? = []

  /// The most distinct values a text field may have to be treated as a set of known values.
  static let knownValuesLimit = 24

  /// The counts a text adds to (the sets it adds to aside).
  struct StringCounts: Sendable {
    var nulls = 0
    var nullTexts = 0
    var strings = 0
    var numericStrings = 0
    var decimalStrings = 0
    var dates = 0
    var dateTimes = 0
    var times = 0
    var durations = 0
  }

  var stringCounts: StringCounts {
    StringCounts(
      nulls: nulls, nullTexts: nullTexts, strings: strings, numericStrings: numericStrings,
      decimalStrings: decimalStrings, dates: dates, dateTimes: dateTimes, times: times,
      durations: durations)
  }

  /// What each short text spelling tallied added to the counts: the same spelling adds the
  /// same again, and nothing to the sets (its text is in them already, or they were full).
  /// Most texts of a sample repeat; each made strings and parsed numbers and dates. (By
  /// 1 + their index in ``added``.)
  private var addedBySpelling = ShortSpellingIndex()
  private var added: [StringCounts] = []
  /// Whether texts seen before add what they added then, and keys are looked for where they
  /// were in the record before (tests compare with a tally that takes no shortcut).
  let shortcuts: Bool

  init(shortcuts: Bool = true) {
    self.shortcuts = shortcuts
    fields = RecordTally(shortcuts: shortcuts)
  }

  /// Tallies into the tally of every element of every list.
  mutating func withElement<E: Error>(_ body: (inout TypeTally) throws(E) -> Void) throws(E) {
    if elements.isEmpty { elements.append(TypeTally(shortcuts: shortcuts)) }
    try body(&elements[0])
  }

  /// Notes what the text spelled `spelling` added since the counts were `before`.
  mutating func remember(_ spelling: ShortSpelling, since before: StringCounts) {
    guard shortcuts, added.count < 4096, addedBySpelling.find(spelling) == nil else { return }
    let now = stringCounts
    added.append(
      StringCounts(
        nulls: now.nulls - before.nulls, nullTexts: now.nullTexts - before.nullTexts,
        strings: now.strings - before.strings,
        numericStrings: now.numericStrings - before.numericStrings,
        decimalStrings: now.decimalStrings - before.decimalStrings,
        dates: now.dates - before.dates, dateTimes: now.dateTimes - before.dateTimes,
        times: now.times - before.times, durations: now.durations - before.durations))
    addedBySpelling.insert(spelling, UInt32(added.count))
  }

  /// Adds again what the text spelled `spelling` added when it was tallied before, if it was
  /// (see ``remember(_:since:)``).
  mutating func addAgain(_ spelling: ShortSpelling) -> Bool {
    guard let index = addedBySpelling.find(spelling), Int(index) <= added.count else {
      return false
    }
    let counts = added[Int(index) - 1]
    nulls += counts.nulls
    nullTexts += counts.nullTexts
    strings += counts.strings
    numericStrings += counts.numericStrings
    decimalStrings += counts.decimalStrings
    dates += counts.dates
    dateTimes += counts.dateTimes
    times += counts.times
    durations += counts.durations
    return true
  }

  mutating func add(string: String) {
    strings += 1
    if let number = NumberText.number(string) {
      numericStrings += 1
      if case .double = number { decimalStrings += 1 }
    } else if otherStrings.count <= NumericText.othersLimit {
      otherStrings.insert(string)
    }
    if distinct != nil {
      distinct?.insert(string)
      if let count = distinct?.count, count > TypeTally.knownValuesLimit { distinct = nil }
    }
  }

  /// A number, of its spelling in `bytes[start..<end]`: an integer that fits 64 bits, or
  /// another number (a double).
  mutating func add(
    number value: Value, _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
  ) {
    if case .int(let int) = value {
      ints += 1
      if int.magnitude > 1 << 53 { wideIntegers += 1 }
      return
    }
    doubles += 1
    if NumberText.isWideInteger(bytes, start, end) { wideIntegers += 1 }
    if !NumberText.fitsDecimal(bytes, start, end) { beyondDecimals += 1 }
  }

  /// A text that usually stands for null.
  mutating func add(nullText: String) {
    nullTexts += 1
    nullTextValues.insert(nullText)
  }

  /// Tallies what a text value also spells: a date, a date-time, a time of day or a
  /// duration.
  mutating func add(spelling bytes: [UInt8]) {
    if bytes.count >= 10, let date = Value.isoDate(bytes) {
      add(date: date)
    } else if Value.isoTime(bytes) != nil {
      times += 1
    } else if Value.duration(bytes) != nil {
      durations += 1
    }
  }

  /// A text value that also spells a date or date-time.
  mutating func add(date: Value) {
    if case .date = date { dates += 1 } else { dateTimes += 1 }
  }

  /// The type these values share: the narrowest one that holds them all. With no value but
  /// null (a field null in every record, a list empty in every record), there is no evidence
  /// of a type: `.null`, which compares with anything and matches nothing.
  ///
  /// Computed afresh at each call, and each call computes the types of nested records and
  /// list elements once: callers that need it more than once keep it (see
  /// ``RecordTally/schema(complete:)``), so that inference stays linear in the depth of the
  /// records (computed three times a level, a record nested 30 deep took hours).
  var type: ValueType {
    let type = typeApartFromNullTexts
    guard nullTexts > 0 else { return type }
    switch type {
    case .null, .bool, .int, .double, .decimal, .date, .dateTime, .time, .duration, .any:
      return type
    default: return .string
    }
  }

  /// Whether the null texts seen are read as null (the field is not text).
  var nullTextsAreNull: Bool { nullTexts > 0 && type != .string }

  /// Whether the null texts seen are read as null, for values of the type `type` (this
  /// tally's ``type``, computed once by the caller).
  private func nullTextsAreNull(type: ValueType) -> Bool { nullTexts > 0 && type != .string }

  private var typeApartFromNullTexts: ValueType {
    let scalars = bools + ints + doubles + strings
    if lists > 0 && scalars + records == 0 {
      return .list(elements.first?.type ?? .null)
    }
    if records > 0 && scalars + lists == 0 { return .record(fields.schema(complete: false)) }
    // Lists or objects among other values: each value keeps its kind.
    if lists + records > 0 { return .any }
    if bools == scalars && bools > 0 { return .bool }
    if ints == scalars && ints > 0 { return .int }
    if ints + doubles == scalars && doubles > 0 {
      return wideIntegers > 0 && beyondDecimals == 0 ? .decimal : .double
    }
    if strings == scalars && strings > 0 {
      if dates == strings { return .date }
      if dateTimes == strings { return .dateTime }
      if times == strings { return .time }
      if durations == strings { return .duration }
    }
    return scalars + lists + records == 0 ? .null : .string
  }

  var isEmpty: Bool {
    nulls + bools + ints + doubles + strings + lists + records + nullTexts == 0
  }

  /// The field these values make, named `name`, with the type ``type`` computed once; optional
  /// when some values were null or the field was `missing` from some records.
  func field(_ name: String, missing: Bool, complete: Bool) -> Schema.Field {
    let type = self.type
    let nullTexts = nullTextsAreNull(type: type)
    let field = Schema.Field(
      name, type, optional: missing || nulls > 0 || nullTexts,
      knownValues: knownValues(complete: complete, type: type),
      numericText: numericText(type: type), nullTexts: nullTexts ? nullTextValues.sorted() : nil)
    return field
  }

  /// For a text field whose values were numbers but for a few other texts (or all numbers
  /// written as text): the hint the checker's help uses.
  private func numericText(type: ValueType) -> NumericText? {
    guard type == .string, lists + records == 0 else { return nil }
    let numbers = ints + doubles + numericStrings
    let others = otherStrings.union(nullTextValues)
    guard numbers > 0, others.count <= NumericText.othersLimit,
      numbers >= strings - numericStrings + nullTexts
    else { return nil }
    return NumericText(integers: doubles + decimalStrings == 0, others: others.sorted())
  }

  /// The values of a text field with few distinct values that repeat: an enum-like field such
  /// as a colour. Only offered when every record was seen, so that a value the filter names
  /// and the sample lacks is not reported as unknown.
  private func knownValues(complete: Bool, type: ValueType) -> [String]? {
    // (Every value text: a column of text mixed with numbers, `01234` and `98765`, holds
    // values that are not among the distinct texts.)
    guard complete, type == .string, let distinct, ints + doubles + bools + lists + records == 0
    else { return nil }
    let values = distinct.union(nullTextValues)
    guard
      ColumnTable.knowsValues(
        distinct: values.count, rows: strings + nullTexts, limit: TypeTally.knownValuesLimit)
    else { return nil }
    return values.sorted()
  }
}

/// The tallies of the fields of records, in the order their names first appeared.
struct RecordTally {
  private(set) var names: [String] = []
  private var slots: [String: Int] = [:]
  /// Each field's tally, by slot (tallied into in place: see ``field(_:position:)``).
  var tallies: [TypeTally] = []
  /// In how many records each field appeared.
  private var present: [Int] = []
  /// How many records were seen.
  var records = 0

  /// For each key position in a record, the field found there last (-1 before): records
  /// usually list their keys in the same order. And each name as written plainly in quotes,
  /// in ``keys``, where it starts and how many bytes (nil for a name that cannot be written
  /// so); each followed by eight zeros.
  private var lastAt: [Int] = []
  private var keys: [UInt8] = []
  private var keyPlaces: [(start: Int, count: Int)?] = []
  /// See ``TypeTally/shortcuts``.
  let shortcuts: Bool

  init(shortcuts: Bool = true) { self.shortcuts = shortcuts }

  /// The slot of the field `name`, added when first seen; counts it as present. `position`:
  /// where the key is in its record, for ``guessedField(_:at:end:position:)``.
  mutating func field(_ name: String, position: Int = -1) -> Int {
    let slot: Int
    if let known = slots[name] {
      slot = known
      present[slot] += 1
    } else {
      slot = names.count
      slots[name] = slot
      names.append(name)
      tallies.append(TypeTally(shortcuts: shortcuts))
      present.append(1)
      // (Eight bytes to spare, zeros, for ``PlainKey/close(of:count:in:at:end:)``.)
      let plain = PlainKey.spelling(Array(name.utf8))
      keyPlaces.append(plain.isEmpty ? nil : (keys.count, plain.count))
      if !plain.isEmpty { keys += plain + repeatElement(0, count: 8) }
    }
    if position >= 0 {
      if position >= lastAt.count {
        lastAt += repeatElement(-1, count: position + 1 - lastAt.count)
      }
      lastAt[position] = slot
    }
    return slot
  }

  /// The slot of the key whose opening quote is at `quote` in `bytes` (which end at `end`),
  /// counted as present, when it is the key found at `position` last time, written plainly;
  /// and where its closing quote is. Nil otherwise (the key is then read, and looked up).
  mutating func guessedField(
    _ bytes: UnsafeBufferPointer<UInt8>, at quote: Int, end: Int, position: Int
  ) -> (slot: Int, close: Int)? {
    guard shortcuts, position < lastAt.count, case let slot = lastAt[position], slot >= 0,
      slot < keyPlaces.count, let (start, count) = keyPlaces[slot],
      let close = keys.withUnsafeBytes({ keys in
        keys.baseAddress.flatMap {
          PlainKey.close(of: $0 + start, count: count, in: bytes, at: quote, end: end)
        }
      })
    else { return nil }
    present[slot] += 1
    return (slot, close)
  }

  /// The usual null texts (`NA`) that stood for null in some field, one whose other values
  /// are not text, and that a text field also holds: the file's null markers, to be read as
  /// null in its text fields too (as pandas and R read them). Nil when a text field holds no
  /// such marker (a column of country codes with Namibia's `NA`, in a file where no other
  /// column uses it, keeps it).
  var nullMarkersInText: Set<String>? {
    let markers = tallies.reduce(into: Set<String>()) { markers, tally in
      if tally.nullTextsAreNull { markers.formUnion(tally.nullTextValues) }
    }
    guard !markers.isEmpty,
      tallies.contains(where: { $0.type == .string && !$0.nullTextValues.isDisjoint(with: markers) }
      )
    else { return nil }
    return markers
  }

  /// The inferred schema. A field is optional when it was null or missing somewhere.
  func schema(complete: Bool) -> Schema {
    Schema(
      names.indices.map { slot in
        tallies[slot].field(names[slot], missing: present[slot] < records, complete: complete)
      })
  }
}
