import FilterDSL
import Testing

@testable import FilterData

/// Parquet files whose counts lie, made by hand (``HandMadeParquet``): nothing is reserved
/// from a count a file claims until the bytes that back it are there, a count that reads no
/// column is the footer's, and what the writers in the wild do that the format allows is read.
@Suite struct HostileParquetTests {
  typealias Page = HandMadeParquet.Page
  typealias Leaf = HandMadeParquet.Leaf

  /// `x`: 1, null, 3 in one optional int32 column.
  static let x = Leaf(
    path: ["x"],
    pages: [
      Page(
        body: HandMadeParquet.body(
          defined: [true, false, true], values: HandMadeParquet.plain([1, 3])), values: 3)
    ])

  /// `s.x`: the same values in a leaf under an optional group (an assembled, nested field).
  static let nested = Leaf(
    path: ["s", "x"],
    pages: [
      Page(
        body: HandMadeParquet.body(
          defined: [true, false, true], depth: 1, values: HandMadeParquet.plain([1, 3])),
        values: 3)
    ])

  func scanned(_ file: HandMadeParquet, _ query: String = "true") throws -> [String] {
    let path = try DataFiles.write(file.bytes, "hand.parquet")
    return try Scan(file: path, query: query).records().map {
      $0.values.map(\.description).joined(separator: "|")
    }
  }

  func count(_ file: HandMadeParquet, _ query: String) throws -> Int {
    let path = try DataFiles.write(file.bytes, "hand.parquet")
    return try Scan(file: path, query: query).run(into: CountSink(to: nil)).matches
  }

  /// The error reading `file` gives (nil when it reads).
  func error(_ file: HandMadeParquet, _ query: String = "true") throws -> String? {
    let path = try DataFiles.write(file.bytes, "hand.parquet")
    do {
      _ = try Scan(file: path, query: query).records()
      return nil
    } catch let error as DataError {
      #expect(error.description.contains("hand.parquet"))
      return error.description
    }
  }

  /// The builder's files read as they say, when they tell the truth.
  @Test func aTruthfulFileReads() throws {
    #expect(try scanned(HandMadeParquet(leaves: [Self.x], rowGroups: [3])) == ["1", "null", "3"])
    let nested = try scanned(HandMadeParquet(leaves: [Self.nested], rowGroups: [3]))
    #expect(nested == ["{1}", "{null}", "{3}"], "\(nested)")
    #expect(try count(HandMadeParquet(leaves: [Self.x], rowGroups: [3, 3]), "x > 2") == 2)
  }

  /// A row group that claims 2^63-1 rows (or 10^12) of a nested field: an error, not the
  /// heap corrupted by an array reserved for them (`free(): invalid pointer`).
  @Test(arguments: [Int64.max, 1_000_000_000_000, 1 << 40, 4])
  func aNestedFieldsRowGroupThatClaimsMoreRows(rows: Int64) throws {
    let message = try error(HandMadeParquet(leaves: [Self.nested], rowGroups: [rows]))
    #expect(
      message?.contains("column 's' of row group 1 has levels that do not fit its schema")
        == true, "\(message ?? "")")
  }

  /// More rows claimed than a flat column holds: an error when the column is read; a count
  /// that reads no column is the footer's sum at once (not empty batches up to the claim),
  /// its overflow an error.
  @Test func aCountThatReadsNoColumnIsTheFootersSum() throws {
    let claims = HandMadeParquet(leaves: [Self.x], rowGroups: [1 << 40, 3])
    #expect(try count(claims, "true") == 1 << 40 + 3)
    #expect(try count(claims, "false") == 0)
    let message = try error(claims, "x > 0")
    #expect(message?.contains("ends after 3 of its 1099511627776 rows") == true, "\(message ?? "")")
    let overflow = HandMadeParquet(leaves: [Self.x], rowGroups: [Int64.max, 3])
    let path = try DataFiles.write(overflow.bytes, "hand.parquet")
    #expect(throws: DataError.self) {
      try Scan(file: path, query: "true").run(into: CountSink(to: nil))
    }
  }

  /// A row group that claims 2^26 rows of a nested field (assembled whole) is refused before
  /// its column is decoded when that would pass the memory limit, in a scan and in a
  /// session's load; under the limit, it is read (and here found short). A top-level field's
  /// pages are decoded a batch at a time: the claim reads as far as the rows go.
  @Test func aRowGroupPastTheMemoryLimitIsRefusedBeforeItIsDecoded() throws {
    let path = try DataFiles.write(
      HandMadeParquet(leaves: [Self.nested], rowGroups: [1 << 26]).bytes, "claims.parquet")
    var options = Scan.Options()
    options.memoryLimit = (ProcessMemory.resident ?? 0) + (64 << 20)
    let limited = try Scan(query: SourceText("s.x > 0"), files: [path], options: options)
    #expect {
      try limited.run(into: CountSink(to: nil))
    } throws: { error in
      "\(error)".contains(
        "has 67108864 rows in row group 1: decoding its column takes about 1.1 GB, past the memory limit of"
      )
    }
    let source = try ParquetSource(path: path)
    source.limitMemory(to: nil)
    #expect {
      try source.read { _ in true }
    } throws: { error in
      "\(error)".contains("has levels that do not fit its schema")
    }
    // (The scan checks what the whole process holds after each batch, which tests running
    // beside this one change: a limit far past what 3 rows take, still under the 1.1 GB a
    // claim reserved whole would.)
    let flat = try DataFiles.write(
      HandMadeParquet(leaves: [Self.x], rowGroups: [1 << 26]).bytes, "flat.parquet")
    options.memoryLimit = (ProcessMemory.resident ?? 0) + (512 << 20)
    let scan = try Scan(query: SourceText("x > 0"), files: [flat], options: options)
    #expect {
      try scan.run(into: CountSink(to: nil))
    } throws: { error in
      "\(error)".contains("ends after 3 of its 67108864 rows")
    }
  }

  /// A page of `rows` entries whose definition levels are one RLE run of `level` (0: every
  /// entry null, 1: every entry has a value), and the values `values`, in a row group of as
  /// many rows.
  static func run(_ rows: Int, level: UInt8, values: [UInt8] = [], encoding: Int32 = 0)
    -> HandMadeParquet
  {
    var levels: [UInt8] = []
    PackedBits.appendVarint(UInt64(rows) << 1, to: &levels)
    levels.append(level)
    let length = UInt32(levels.count)
    let body = (0..<4).map { UInt8(truncatingIfNeeded: length >> UInt32(8 * $0)) } + levels + values
    let page = Page(body: body, values: Int32(rows), encoding: encoding)
    return HandMadeParquet(leaves: [Leaf(path: ["x"], pages: [page])], rowGroups: [Int64(rows)])
  }

  /// A page that holds 2^23 nulls in a run of a few bytes (a legal file: 16 bytes a row,
  /// 128 MB, when decoded whole) reads under a memory limit of 96 MB past what flt holds: its
  /// entries are decoded a batch at a time. (The source alone: a scan also checks what the
  /// whole process holds after each batch. Tests running beside this one change that too:
  /// hence a margin far past a batch.)
  @Test func aRunOfNullsIsReadABatchAtATime() throws {
    let path = try DataFiles.write(Self.run(1 << 23, level: 0).bytes, "nulls.parquet")
    let source = try ParquetSource(path: path)
    source.limitMemory(to: (ProcessMemory.resident ?? 0) + (96 << 20))
    var (rows, nulls, largest) = (0, 0, 0)
    try source.read { block in
      guard case .batches(let batches) = block else { return false }
      for batch in batches {
        rows += batch.count
        largest = Swift.max(largest, batch.count)
        nulls += batch.table.rows.filter { batch.table.columns[0].value(at: $0).isNull }.count
      }
      return true
    }
    #expect(rows == 1 << 23)
    #expect(nulls == rows)
    #expect(largest <= ParquetSource.batchRows)
  }

  /// A DELTA_BINARY_PACKED page whose 2^24 values take a few bytes a block (every difference
  /// 0): expanding them past the memory limit is an error naming the column, before they are
  /// made (256 MB against a limit 48 MB past what flt holds: far apart, as tests running
  /// beside this one change what the process holds); without a limit, 2^22 of them read.
  @Test func deltasThatExpandPastTheLimitAreRefused() throws {
    func deltas(_ rows: Int, _ name: String) throws -> String {
      var values: [UInt8] = []
      for number in [128, 4, UInt64(rows), 14] {
        PackedBits.appendVarint(UInt64(number), to: &values)
      }
      for _ in 0..<(rows / 128) { values += [0, 0, 0, 0, 0] }
      return try DataFiles.write(Self.run(rows, level: 1, values: values, encoding: 5).bytes, name)
    }
    var options = Scan.Options()
    options.memoryLimit = (ProcessMemory.resident ?? 0) + (48 << 20)
    let many = try deltas(1 << 24, "deltas.parquet")
    let limited = try Scan(query: SourceText("x == 7"), files: [many], options: options)
    #expect {
      try limited.run(into: CountSink(to: nil))
    } throws: { error in
      "\(error)".contains("column 'x' of row group 1 has a page of 16777216 values packed")
    }
    let fewer = try deltas(1 << 22, "fewer-deltas.parquet")
    #expect(try Scan(file: fewer, query: "x == 7").run(into: CountSink(to: nil)).matches == 1 << 22)
  }

  /// A page that says it inflates to 2^31-1 bytes: an error naming the codec. Snappy and LZ4
  /// refuse the size before anything is reserved (their expansion is bounded); zstd reserves
  /// as far as its input could plausibly reach and grows from there.
  @Test(arguments: [(Int32(1), "snappy"), (7, "LZ4"), (6, "zstd")])
  func aPageThatClaimsToInflateTooFar(codec: Int32, name: String) throws {
    var leaf = Self.x
    leaf.codec = codec
    leaf.pages[0].uncompressed = Int32.max
    let message = try error(HandMadeParquet(leaves: [leaf], rowGroups: [3]))
    #expect(message?.contains(name) == true, "\(message ?? "")")
  }

  /// A data page that claims 2^31-1 values in a few bytes (and its row group as many rows):
  /// an error. (What is reserved for them is bounded by the page's bytes; reserved whole, the
  /// memory is only mapped, not touched, so this test cannot tell.)
  @Test func aPageThatClaimsMoreValuesThanItHolds() throws {
    let page = Page(
      body: HandMadeParquet.body(defined: [true, true], values: HandMadeParquet.plain([1, 2])),
      values: Int32.max)
    let message = try error(
      HandMadeParquet(leaves: [Leaf(path: ["x"], pages: [page])], rowGroups: [Int64(Int32.max)]))
    #expect(message != nil)
  }

  /// A dictionary of 2^31-1 values of a FIXED_LEN_BYTE_ARRAY of length 0 (each takes no
  /// byte): refused, as DuckDB does, not 3 GB of empty values.
  @Test func aFixedLengthOfZeroIsRefused() throws {
    let dictionary = Page(type: 2, body: [], values: Int32.max)
    let indices = Page(
      body: HandMadeParquet.body(defined: [true], values: [0, 0x02, 0]), values: 1, encoding: 8)
    let leaf = Leaf(
      path: ["x"], physical: .fixedLengthByteArray, typeLength: 0, pages: [dictionary, indices])
    let message = try error(HandMadeParquet(leaves: [leaf], rowGroups: [1]))
    #expect(message?.contains("length 0") == true, "\(message ?? "")")
  }

  /// arrow-rs (Polars) writes a one-value dictionary's indices with bit width 0, as a
  /// bit-packed run that takes no byte: every index is 0.
  @Test func indicesOfBitWidthZero() throws {
    let dictionary = Page(type: 2, body: HandMadeParquet.plain([5]), values: 1)
    // Width 0, then one bit-packed run of 125 groups (1000 values), no bytes after it.
    var runs: [UInt8] = []
    PackedBits.appendVarint(125 << 1 | 1, to: &runs)
    let defined = Array(repeating: false, count: 999) + [true]
    // Only the defined values' indices are written: one value, in a group of eight.
    let sparse = Page(
      body: HandMadeParquet.body(defined: defined, values: [0, 0x03]), values: 1000, encoding: 8)
    let file = HandMadeParquet(
      leaves: [Leaf(path: ["x"], pages: [dictionary, sparse])], rowGroups: [1000])
    #expect(try count(file, "x >= 0") == 1)
    #expect(try count(file, "x is null") == 999)
    let dense = Page(
      body: HandMadeParquet.body(defined: Array(repeating: true, count: 1000), values: [0] + runs),
      values: 1000, encoding: 8)
    let all = HandMadeParquet(
      leaves: [Leaf(path: ["x"], pages: [dictionary, dense])], rowGroups: [1000])
    #expect(try count(all, "x == 5") == 1000)
  }

  /// A date or time beyond the years 0000-9999 (a `date32` of 2^31-1 days, a `timestamp[ms]`
  /// of 2^63-1) is an error naming the column, not a date clamped to another; the edges of
  /// the range read.
  @Test func datesAndTimesBeyondTheRangeAreErrors() throws {
    func date(_ days: Int32) -> HandMadeParquet {
      let page = Page(
        body: HandMadeParquet.body(defined: [true], values: HandMadeParquet.plain([days])),
        values: 1)
      return HandMadeParquet(
        leaves: [Leaf(path: ["day"], convertedType: 6, pages: [page])], rowGroups: [1])
    }
    func time(_ milliseconds: Int64) -> HandMadeParquet {
      let page = Page(
        body: HandMadeParquet.body(
          defined: [true], values: HandMadeParquet.plain(int64: [milliseconds])),
        values: 1)
      return HandMadeParquet(
        leaves: [Leaf(path: ["at"], physical: .int64, convertedType: 9, pages: [page])],
        rowGroups: [1])
    }
    for file in [date(Int32.max), date(Int32.min), time(Int64.max), time(Int64.min)] {
      let message = try error(file)
      #expect(message?.contains("outside the years 0000-9999") == true, "\(message ?? "")")
    }
    #expect(try scanned(date(2_932_896)) == ["9999-12-31"])
    #expect(try scanned(date(-719_528)) == ["0000-01-01"])
    #expect(try scanned(time(253_402_300_799_999)) == ["9999-12-31T23:59:59.999Z"])
  }

  /// Parquet's TIME is read as a time of day and INTERVAL as a length of time (TIME was a
  /// bare number, its unit lost, and INTERVAL its raw bytes); a time of day past 24:00 and an
  /// interval of months are errors naming the column, never a number.
  @Test func timesOfDayAreTimesAndIntervalsDurations() throws {
    let path = DataFiles.root.appendingPathComponent("Tests/Fixtures/duckdb/times.parquet").path
    let source = try ParquetSource(path: path)
    #expect(source.schema.fields.map(\.type) == [.int, .time, .duration])
    func count(_ query: String, in file: String = path) throws -> Int {
      try Scan(file: file, query: query).run(into: CountSink(to: nil)).matches
    }
    #expect(try count("t > 22:00") == 1)
    #expect(try count("t < 09:00") == 2)
    #expect(try count("t == 08:30") == 1)
    #expect(try count("hour(t) == 8 and minute(t) == 30") == 1)
    #expect(try count("t between 08:00 and 23:59:59.999999") == 2)
    #expect(try count("i >= 1d") == 1)
    #expect(try count("i == 0s") == 1)
    // The help that led to a wrong count ("write the number without a unit: 22") now says
    // how to write a time.
    #expect(throws: Error.self) { try count("t > 22") }
    #expect(throws: Error.self) { try count("t > 22h") }
    let records = try Scan(file: path, query: "n == 3").records()
    #expect(
      records.first?.values[1]
        == TimeOfDay(nanosecondsSinceMidnight: 86_399_999_999_000).map(Value.time))
    // Polars' pl.Time (TIME(NANOS)), read as pyarrow's widths are in `everyRowReadsAsItsTwin`.
    let polars = DataFiles.root.appendingPathComponent("Tests/Fixtures/polars/times.parquet").path
    #expect(try ParquetSource(path: polars).schema.fields.map(\.type) == [.int, .time])
    #expect(try count("at > 12:00", in: polars) == 1)
    #expect(try count("at < 06:15:00.000000001", in: polars) == 1)
    func leaf(_ physical: ParquetMetadata.PhysicalType, _ converted: Int32, _ body: [UInt8])
      -> HandMadeParquet
    {
      let page = Page(body: HandMadeParquet.body(defined: [true], values: body), values: 1)
      let length: Int32? = physical == .fixedLengthByteArray ? 12 : nil
      return HandMadeParquet(
        leaves: [
          Leaf(
            path: ["v"], physical: physical, typeLength: length, convertedType: converted,
            pages: [page])
        ], rowGroups: [1])
    }
    // TIME_MILLIS (int32), TIME_MICROS (int64), INTERVAL (12 bytes: months, days, ms); 24:00
    // itself is a time SQL allows.
    #expect(try scanned(leaf(.int32, 7, HandMadeParquet.plain([3_600_000]))) == ["01:00:00"])
    #expect(
      try scanned(leaf(.int64, 8, HandMadeParquet.plain(int64: [90_000_000]))) == ["00:01:30"])
    #expect(try scanned(leaf(.int32, 7, HandMadeParquet.plain([86_400_000]))) == ["24:00:00"])
    let interval = HandMadeParquet.plain([0, 2, 1_500])
    #expect(try scanned(leaf(.fixedLengthByteArray, 21, interval)) == ["2d1s500ms"])
    let late = try error(leaf(.int32, 7, HandMadeParquet.plain([86_400_001])))
    #expect(late?.contains("column 'v'") == true && late?.contains("00:00-24:00") == true)
    let months = try error(leaf(.fixedLengthByteArray, 21, HandMadeParquet.plain([2, 0, 0])))
    #expect(months?.contains("column 'v'") == true, "\(months ?? "")")
    #expect(months?.contains("an interval of 2 months") == true)
    let far = try error(leaf(.fixedLengthByteArray, 21, HandMadeParquet.plain([0, -1, 0])))
    #expect(far?.contains("longer than flt's durations") == true, "\(far ?? "")")
    // A TIME column's statistics rule row groups out as a timestamp's do (08:00-09:00 here).
    var times = leaf(.int64, 8, HandMadeParquet.plain(int64: [8 * 3_600_000_000]))
    times.leaves[0].min = HandMadeParquet.plain(int64: [8 * 3_600_000_000])
    times.leaves[0].max = HandMadeParquet.plain(int64: [9 * 3_600_000_000])
    let timesPath = try DataFiles.write(times.bytes, "times.parquet")
    let timesSource = try ParquetSource(path: timesPath)
    let skipped = try Scan(query: SourceText("v > 22:00"), source: timesSource)
    #expect(try skipped.run(into: CountSink(to: nil)).matches == 0)
    #expect(timesSource.skippedRowGroups == 1)
    #expect(try self.count(times, "v >= 08:00") == 1)
  }

  /// Statistics whose least value is above their greatest are corrupt: the row group is
  /// read, not ruled out.
  @Test func statisticsWithMinAboveMaxAreNotTrusted() throws {
    var leaf = Self.x
    leaf.min = HandMadeParquet.plain([10])
    leaf.max = HandMadeParquet.plain([0])
    let file = HandMadeParquet(leaves: [leaf], rowGroups: [3])
    #expect(try count(file, "x == 3") == 1)
    #expect(try count(file, "x > 0") == 2)
    #expect(try count(file, "x < 5") == 2)
  }
}
