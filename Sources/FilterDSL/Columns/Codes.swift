/// A coded column's codes, each as narrow as the column's distinct values allow: one byte
/// while the column has at most 255 (besides null, code 0), two bytes up to 65,535, four
/// past that. Most coded columns (colors, models, sizes, flags) take one byte a row: a
/// quarter of the memory, and of what a filter over them reads, that four-byte codes took.
///
/// Codes widen as they are appended (once per width, a copy of the rows so far); they never
/// narrow. A loop over every row reads the codes at their width through
/// ``withBuffer(_:_:_:)``, with one generic function specialised for each width.
struct Codes: Sendable {
  /// The codes, in the one array of their width; the others are empty. (Three arrays, not an
  /// enum of them: an array taken out of an enum to append to it was copied each time.)
  private var bytes: [UInt8] = []
  private var shorts: [UInt16] = []
  private var words: [UInt32] = []
  /// How many bytes a code takes: 1, 2 or 4.
  private(set) var width = 1

  /// No codes.
  init() {}

  /// `codes`, at the width the largest needs.
  init<S: Sequence>(_ codes: S) where S.Element == UInt32 {
    let all = Array(codes)
    let largest = all.max() ?? 0
    if largest <= UInt8.max {
      bytes = all.map { UInt8(truncatingIfNeeded: $0) }
    } else if largest <= UInt16.max {
      (shorts, width) = (all.map { UInt16(truncatingIfNeeded: $0) }, 2)
    } else {
      (words, width) = (all, 4)
    }
  }

  /// How many codes.
  var count: Int {
    switch width {
    case 1: bytes.count
    case 2: shorts.count
    default: words.count
    }
  }

  var isEmpty: Bool { count == 0 }

  /// The code of row `row` (which must be below ``count``).
  @inline(__always) subscript(row: Int) -> UInt32 {
    switch width {
    case 1: UInt32(bytes[row])
    case 2: UInt32(shorts[row])
    default: words[row]
    }
  }

  /// The code of row `row`, or 0 (null) outside the codes.
  @inline(__always) func code(at row: Int) -> UInt32 {
    row >= 0 && row < count ? self[row] : 0
  }

  /// The last code, if any.
  var last: UInt32? { isEmpty ? nil : self[count - 1] }

  /// Appends `code`, widening the codes first if it needs more bytes.
  @inline(__always) mutating func append(_ code: UInt32) {
    if width == 1 && code <= UInt8.max {
      bytes.append(UInt8(truncatingIfNeeded: code))
    } else if width == 2 && code <= UInt16.max {
      shorts.append(UInt16(truncatingIfNeeded: code))
    } else if width == 4 {
      words.append(code)
    } else {
      widen(for: code)
      append(code)
    }
  }

  /// Sets the code of row `row` (below ``count``), widening the codes first if it needs more
  /// bytes.
  mutating func set(_ row: Int, _ code: UInt32) {
    if width == 1 && code <= UInt8.max {
      bytes[row] = UInt8(truncatingIfNeeded: code)
    } else if width == 2 && code <= UInt16.max {
      shorts[row] = UInt16(truncatingIfNeeded: code)
    } else if width == 4 {
      words[row] = code
    } else {
      widen(for: code)
      set(row, code)
    }
  }

  /// The codes at the width `code` needs (wider than the current one).
  private mutating func widen(for code: UInt32) {
    let capacity = Swift.max(bytes.capacity, shorts.capacity)
    if code > UInt16.max {
      words.reserveCapacity(capacity)
      for row in 0..<count { words.append(self[row]) }
      width = 4
    } else {
      shorts.reserveCapacity(capacity)
      for row in 0..<count { shorts.append(UInt16(truncatingIfNeeded: self[row])) }
      width = 2
    }
    (bytes, shorts) = ([], width == 2 ? shorts : [])
  }

  /// Makes room for `rows` codes in all.
  mutating func reserveCapacity(_ rows: Int) {
    switch width {
    case 1: bytes.reserveCapacity(rows)
    case 2: shorts.reserveCapacity(rows)
    default: words.reserveCapacity(rows)
    }
  }

  /// Removes the last `k` codes (at most ``count``), keeping the width.
  mutating func removeLast(_ k: Int) {
    let k = Swift.max(0, Swift.min(k, count))
    switch width {
    case 1: bytes.removeLast(k)
    case 2: shorts.removeLast(k)
    default: words.removeLast(k)
    }
  }

  /// Appends, for each of the first `limit` codes of `source`, the code `map` gives it (every
  /// code of those within `map`): another column's codes as this column's, widened once for
  /// the largest, each width of each a loop of its own.
  mutating func append(_ source: Codes, upTo limit: Int, mappedBy map: [UInt32]) {
    let limit = Swift.max(0, Swift.min(limit, source.count))
    guard limit > 0 else { return }
    if let largest = map.max(), largest > 0 {
      // (Widening for the largest the map gives, at most once per width.)
      if width == 1 && largest > UInt8.max || width == 2 && largest > UInt16.max {
        widen(for: largest)
      }
    }
    map.withUnsafeBufferPointer { map in
      func append<T: FixedWidthInteger>(_ codes: UnsafeBufferPointer<T>) {
        let codes = UnsafeBufferPointer(rebasing: codes[0..<limit])
        switch width {
        case 1: Self.append(codes, mappedBy: map, to: &bytes)
        case 2: Self.append(codes, mappedBy: map, to: &shorts)
        default: Self.append(codes, mappedBy: map, to: &words)
        }
      }
      source.withBuffer(append, append, append)
    }
  }

  /// Appends to `array` the code `map` gives each of `codes` (0 for one past the map). (A
  /// loop over buffers: appending a lazy map of them went element by element, at a fifth
  /// of this speed.)
  private static func append<Code: FixedWidthInteger, Mapped: FixedWidthInteger>(
    _ codes: UnsafeBufferPointer<Code>, mappedBy map: UnsafeBufferPointer<UInt32>,
    to array: inout [Mapped]
  ) {
    let start = array.count
    array.append(contentsOf: repeatElement(0, count: codes.count))
    array.withUnsafeMutableBufferPointer { out in
      for offset in codes.indices {
        let index = Int(codes[offset])
        out[start &+ offset] = index < map.count ? Mapped(truncatingIfNeeded: map[index]) : 0
      }
    }
  }

  /// Removes every code, keeping the width and the room.
  mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
    shorts.removeAll(keepingCapacity: true)
    words.removeAll(keepingCapacity: true)
  }

  /// Calls the one of `bytes`, `shorts` and `words` that reads the codes at their width,
  /// with their buffer. Pass one generic function three times (`codes.withBuffer(f, f, f)`,
  /// `f` generic over `FixedWidthInteger`): each width gets a loop of its own.
  @inline(__always) func withBuffer<R>(
    _ bytes: (UnsafeBufferPointer<UInt8>) throws -> R,
    _ shorts: (UnsafeBufferPointer<UInt16>) throws -> R,
    _ words: (UnsafeBufferPointer<UInt32>) throws -> R
  ) rethrows -> R {
    switch width {
    case 1: try self.bytes.withUnsafeBufferPointer(bytes)
    case 2: try self.shorts.withUnsafeBufferPointer(shorts)
    default: try self.words.withUnsafeBufferPointer(words)
    }
  }

  /// Calls the one of `bytes`, `shorts` and `words` that takes the codes' array at their
  /// width (for a closure that keeps it).
  @inline(__always) func withArray<R>(
    _ bytes: ([UInt8]) -> R, _ shorts: ([UInt16]) -> R, _ words: ([UInt32]) -> R
  ) -> R {
    switch width {
    case 1: bytes(self.bytes)
    case 2: shorts(self.shorts)
    default: words(self.words)
    }
  }
}
