/// Where each loaded record's text is, for output: byte ranges into the file it was read from
/// (kept open, see ``RecordFile``), or, for what cannot be read again (standard input, a
/// pipe, gzip data), into a copy held in memory.
struct RecordTexts: Sendable {
  /// Where each record's text starts: in the file, or in ``Source/memory``.
  private(set) var starts: [Int] = []
  /// How long each record's text is (a record is at most 256 MiB, see ``DataReader``).
  private(set) var lengths: [UInt32] = []
  private(set) var source: Source

  enum Source: Sendable {
    /// The records' bytes, one after another.
    case memory([UInt8])
    /// The file they were read from.
    case file(RecordFile)
  }

  /// At most this many bytes are read from the file at once for records near each other.
  static let window = 1 << 20

  /// No records yet: their text will be copied (`file` nil) or read back from `file`.
  init(file: RecordFile?) {
    source = file.map(Source.file) ?? .memory([])
  }

  /// Makes room for about `rows` records (see ``ColumnBuilder/reserve(rows:)``).
  mutating func reserve(_ rows: Int) {
    starts.reserveCapacity(rows)
    lengths.reserveCapacity(rows)
  }

  /// Adds the texts of records: `buffer[range]` for each of `ranges`, where `buffer` starts
  /// at `offset` in the input.
  mutating func append(_ ranges: [Range<Int>], of buffer: [UInt8], at offset: Int) {
    // (Each made in an array, then appended whole: appended one by one, with a check of
    // room and ownership each, they took 3% of a load, on one core between blocks.)
    lengths += ranges.map { UInt32(clamping: $0.count) }
    guard case .memory(var bytes) = source else {
      starts += ranges.map { offset + $0.lowerBound }
      return
    }
    // (Taken out of `source` while it grows, so that the array is not copied.)
    source = .memory([])
    for range in ranges {
      starts.append(bytes.count)
      bytes += buffer[range]
    }
    source = .memory(bytes)
  }

  var count: Int { starts.count }

  /// Whether the file the texts are read from changed since it was loaded, so that records
  /// are printed from their values instead.
  var changedOnDisk: Bool {
    guard case .file(let file) = source else { return false }
    return !file.isUnchanged
  }

  /// About how many bytes the texts take in memory.
  var bytes: Int {
    let ranges = starts.capacity * 8 + lengths.capacity * 4
    guard case .memory(let bytes) = source else { return ranges }
    return ranges + bytes.capacity
  }

  /// Calls `body` with each row of `rows`, in order, and its text: nil for a row outside the
  /// records, or when the file changed. Rows near each other in the file are read together.
  func forEach(_ rows: [Int], _ body: (Int, ArraySlice<UInt8>?) -> Void) {
    var next = 0
    while next < rows.count {
      let first = rows[next]
      guard first >= 0, first < count else {
        body(first, nil)
        next += 1
        continue
      }
      if case .memory(let bytes) = source {
        body(first, bytes[range(first)])
        next += 1
        continue
      }
      // The rows that follow within a window after this one's start: one read for all.
      let lower = starts[first]
      var upper = range(first).upperBound
      var end = next + 1
      while end < rows.count, rows[end] >= 0, rows[end] < count {
        let span = range(rows[end])
        guard span.lowerBound >= lower, span.upperBound - lower <= RecordTexts.window else {
          break
        }
        upper = Swift.max(upper, span.upperBound)
        end += 1
      }
      let bytes: [UInt8]? =
        if case .file(let file) = source { file.read(lower..<upper) } else { nil }
      for row in rows[next..<end] {
        let span = range(row)
        body(row, bytes?[(span.lowerBound - lower)..<(span.upperBound - lower)])
      }
      next = end
    }
  }

  private func range(_ row: Int) -> Range<Int> {
    starts[row]..<starts[row] + Int(lengths[row])
  }
}
