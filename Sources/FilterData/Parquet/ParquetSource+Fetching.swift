import FilterDSL

/// A Parquet file hands over again the records at given places: each row group that holds
/// one is read again, every field, and only those rows are made records.
extension ParquetSource: FetchingSource {
  /// A file's records can always be fetched.
  public var fetches: Bool { true }

  /// The records at `ordinals` (rows of the file, from 0), every field decoded, in that
  /// order.
  public func records(at ordinals: [Int], makingText: Bool) throws -> [DataRecord] {
    // Each row group's first row, and the rows asked for in each.
    var starts: [Int] = []
    var total = 0
    for group in metadata.rowGroups {
      starts.append(total)
      total = total.addingReportingOverflow(Int(clamping: group.rowCount)).partialValue
    }
    var wanted: [Int: [Int]] = [:]
    for ordinal in Set(ordinals) {
      // (The last group starting at or before it.)
      var low = 0
      var high = starts.count
      while low < high {
        let middle = (low + high) / 2
        if starts[middle] <= ordinal { low = middle + 1 } else { high = middle }
      }
      let index = low - 1
      guard ordinal >= 0, index >= 0,
        ordinal - starts[index] < Int(metadata.rowGroups[index].rowCount)
      else { throw DataError.file(name, "has no row \(ordinal + 1)") }
      wanted[index, default: []].append(ordinal - starts[index])
    }
    let saved = decoding
    decoding = nil
    defer { decoding = saved }
    var found: [Int: [Value]] = [:]
    for (index, offsets) in wanted.sorted(by: { $0.key < $1.key }) {
      let group = metadata.rowGroups[index]
      let rows = Int(group.rowCount)
      let sorted = offsets.sorted()
      let read = try readFields(of: group, index: index, rows: rows, selection: nil)
      var columns: [[Value]] = []
      for column in read {
        columns.append(try values(of: sorted, in: column, rows: rows, index: index))
      }
      for (position, offset) in sorted.enumerated() {
        found[starts[index] + offset] =
          columns.map { $0[position] } + partitions.map(\.value)
      }
    }
    guard let records = records(made: ordinals.map { found[$0] ?? [] }, makingText: makingText)
    else { throw DataError.file(name, "has columns of other types than its schema says") }
    return records
  }

  /// The values of rows `offsets` (in order) of a row group's field as read.
  private func values(of offsets: [Int], in column: RowGroupColumn?, rows: Int, index: Int)
    throws(DataError) -> [Value]
  {
    switch column {
    case .flat(let chunk)?:
      return offsets.map { chunk.column($0..<($0 + 1)).value(at: 0) }
    case .nested(let values)?:
      return offsets.map { $0 < values.count ? values[$0] : .null }
    case .streamed(let stream)?:
      // Decoded a batch at a time, up to the last row asked for.
      var values: [Value] = []
      var done = 0
      var next = 0
      while next < offsets.count, done < rows {
        let count = Swift.min(ParquetSource.batchRows, rows - done)
        let batch: Column
        do {
          batch = try stream.next(count)
        } catch {
          throw DataError.file(
            name, "column '\(stream.name)' of row group \(index + 1) \(error.message)")
        }
        while next < offsets.count, offsets[next] < done + count {
          values.append(batch.value(at: offsets[next] - done))
          next += 1
        }
        done += count
      }
      return values + [Value](repeating: .null, count: offsets.count - values.count)
    case nil:
      return [Value](repeating: .null, count: offsets.count)
    }
  }
}
