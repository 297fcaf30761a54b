import FilterDSL

/// An Arrow file hands over again the records at given places: only the record batches that
/// hold one are read again (their bodies; the others' headers alone), every field, and only
/// those rows are made records. A stream is read once: its records are not fetched.
extension ArrowSource: FetchingSource {
  /// Whether the source is a file (read at offsets), not a stream.
  public var fetches: Bool {
    if case .file = messages.kind { true } else { false }
  }

  /// The records at `ordinals` (rows of the file's batches, from 0), every field decoded, in
  /// that order.
  public func records(at ordinals: [Int], makingText: Bool) throws -> [DataRecord] {
    guard fetches else {
      throw DataError.file(name, "is a stream, read once: its records cannot be read again")
    }
    let wanted = Set(ordinals)
    let saved = decoding
    decoding = nil
    defer { decoding = saved }
    var found: [Int: [Value]] = [:]
    // The first row of the next batch asked about, and of each batch wanted, in turn.
    var next = 0
    var starts: [Int] = []
    try readBatches(wanted: { header in
      let rows = next..<next.addingReportingOverflow(header.length).partialValue
      next = rows.upperBound
      guard wanted.contains(where: rows.contains) else { return false }
      starts.append(rows.lowerBound)
      return true
    }) { batch, header in
      guard !starts.isEmpty else { return false }
      let start = starts.removeFirst()
      for ordinal in wanted where (start..<start + header.length).contains(ordinal) {
        let row = (ordinal - start)..<(ordinal - start + 1)
        var values: [Value] = []
        for array in batch.arrays { values += try batch.decoder.values(array, rows: row) }
        found[ordinal] = values
      }
      return true
    }
    guard let records = records(made: ordinals.map { found[$0] ?? [] }, makingText: makingText)
    else { throw DataError.file(name, "has columns of other types than its schema says") }
    return records
  }
}
