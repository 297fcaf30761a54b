import FilterDSL

/// A column chunk's page index, where its writer wrote one (the format's `OffsetIndex` and
/// `ColumnIndex`, after the row groups): where each data page is and the first row it holds,
/// and each page's least and greatest value and null count. A filter tested against the pages
/// of the columns it reads (``ParquetSource``) leaves the rows of pages that cannot match
/// unread, in every column: a row group of a million rows is then read a page at a time.
struct ParquetPageIndex {
  struct Page {
    /// Where the page (its header first) is in the file, and its bytes.
    var offset: Int64
    var size: Int
    /// The rows it holds, of its row group's.
    var rows: Range<Int>
    /// Its statistics, from the column index (nil without one).
    var statistics: ParquetMetadata.Statistics?
  }

  var pages: [Page]

  /// The index of a chunk of a row group of `rows` rows, from the bytes of its offset index
  /// and, when there is one, its column index. Pages must start at row 0, in order, each
  /// with a row of its own, within the file.
  init(offsets: UnsafeRawBufferPointer, columns: UnsafeRawBufferPointer?, rows: Int, fileSize: Int)
    throws(ParquetError)
  {
    var locations: [(offset: Int64, size: Int32, first: Int64)] = []
    do {
      var reader = ThriftReader(offsets)
      try reader.structure { (r, id, _) throws(ThriftReader.ThriftError) in
        guard id == 1 else { return }
        locations = try r.list { (r, _) throws(ThriftReader.ThriftError) in
          var location: (Int64, Int32, Int64) = (-1, -1, -1)
          try r.structure { (r, id, _) throws(ThriftReader.ThriftError) in
            switch id {
            case 1: location.0 = try r.int()
            case 2: location.1 = try r.int32()
            case 3: location.2 = try r.int()
            default: break
            }
          }
          return location
        }
      }
    } catch {
      throw ParquetError("has an offset index that cannot be read: \(error.message)")
    }
    pages = []
    for (index, location) in locations.enumerated() {
      let end = index + 1 < locations.count ? locations[index + 1].first : Int64(rows)
      guard location.first >= 0, location.first < end, end <= Int64(rows),
        index > 0 || location.first == 0, location.offset >= 4, location.size > 0,
        Int64(location.size) <= Int64(fileSize) - location.offset
      else { throw ParquetError("has an offset index whose pages do not fit it") }
      pages.append(
        Page(
          offset: location.offset, size: Int(location.size),
          rows: Int(location.first)..<Int(end)))
    }
    guard let last = pages.last, last.rows.upperBound == rows else {
      throw ParquetError("has an offset index whose pages do not fit it")
    }
    guard let columns else { return }
    // The column index: per page, whether every value is null, the least and greatest
    // values, and (optionally) the null counts. One that does not fit is not used.
    var (nullPages, mins, maxes, nullCounts): ([Bool], [[UInt8]], [[UInt8]], [Int64]?) = (
      [], [], [], nil
    )
    do {
      var reader = ThriftReader(columns)
      try reader.structure { (r, id, _) throws(ThriftReader.ThriftError) in
        switch id {
        case 1:
          nullPages = try r.list { (r, _) throws(ThriftReader.ThriftError) in try r.listedBool() }
        case 2: mins = try r.list { (r, _) throws(ThriftReader.ThriftError) in try r.binary() }
        case 3: maxes = try r.list { (r, _) throws(ThriftReader.ThriftError) in try r.binary() }
        case 5: nullCounts = try r.list { (r, _) throws(ThriftReader.ThriftError) in try r.int() }
        default: break
        }
      }
    } catch {
      return
    }
    let count = pages.count
    guard nullPages.count == count, mins.count == count, maxes.count == count,
      nullCounts.map({ $0.count == count }) ?? true
    else { return }
    for index in pages.indices {
      let rows = Int64(pages[index].rows.count)
      var statistics = ParquetMetadata.Statistics()
      statistics.nullCount = nullPages[index] ? rows : nullCounts?[index]
      if !nullPages[index] { (statistics.min, statistics.max) = (mins[index], maxes[index]) }
      pages[index].statistics = statistics
    }
  }
}

/// Rows of a row group as sorted, disjoint ranges.
enum RowRanges {
  /// The rows in both.
  static func intersection(_ a: [Range<Int>], _ b: [Range<Int>]) -> [Range<Int>] {
    var (i, j, out) = (0, 0, [Range<Int>]())
    while i < a.count && j < b.count {
      let low = Swift.max(a[i].lowerBound, b[j].lowerBound)
      let high = Swift.min(a[i].upperBound, b[j].upperBound)
      if low < high { out.append(low..<high) }
      if a[i].upperBound < b[j].upperBound { i += 1 } else { j += 1 }
    }
    return out
  }

  /// The rows in either.
  static func union(_ a: [Range<Int>], _ b: [Range<Int>]) -> [Range<Int>] {
    merged((a + b).sorted { $0.lowerBound < $1.lowerBound })
  }

  /// Sorted ranges with those that touch or overlap joined.
  static func merged(_ sorted: [Range<Int>]) -> [Range<Int>] {
    var out: [Range<Int>] = []
    for range in sorted where !range.isEmpty {
      if let last = out.last, range.lowerBound <= last.upperBound {
        out[out.count - 1] = last.lowerBound..<Swift.max(last.upperBound, range.upperBound)
      } else {
        out.append(range)
      }
    }
    return out
  }
}
