import FilterDSL

/// Inference: the schema from the first records (or the whole input), before records are read.
extension DataReader {
  /// Tallies the first ``sampleRecords`` records (all of a smaller input), reading on until
  /// it has them or the buffer holds ``sampleBytes``; then goes back to the start. The
  /// schema so depends on the data only, not on block sizes or on how a pipe delivers it;
  /// except that a stream (a pipe, a terminal) that pauses for ``pauseMilliseconds`` after
  /// some records is inferred from those, so that `tail -f log | flt ...` prints as lines come
  /// (later records grow the schema as they need).
  func infer(
    records limit: Int = DataReader.sampleRecords, bytes: Int = DataReader.sampleBytes
  ) throws(DataError) -> (Schema, complete: Bool) {
    let first = try tallySample(records: limit, bytes: bytes)
    // A usual null text that is null in a field of numbers and also in a text field is the
    // file's null marker: null everywhere, as a text named with --null is. The sample is
    // tallied again with it named, so that text fields are inferred without it.
    guard let markers = first.tally?.record.nullMarkersInText else {
      return (first.schema, first.complete)
    }
    nullMarkers = markers.sorted()
    nulls = NullTexts(options, markers: markers, tsv: format == .tsv)
    if let header {
      delimited?.columns = CSVColumns(header: header, nulls: nulls, fixed: growth.fixed)
    }
    let second = try tallySample(records: limit, bytes: bytes)
    return (second.schema, second.complete)
  }

  /// The schema of the first records, as ``infer(records:bytes:)`` says, with their tallies
  /// (nil for a header without rows).
  private func tallySample(records limit: Int, bytes: Int) throws(DataError) -> (
    schema: Schema, complete: Bool, tally: SampleTally?
  ) {
    var records: [DataRecord] = []
    while true {
      let saved = (position, line, lineStart, framing)
      let tally = SampleTally(shortcuts: tallyShortcuts)
      (stopsSampleAtError, sampleEndedAtError) = (true, false)
      defer { stopsSampleAtError = false }
      try parse(&records, decode: false, tally: tally, limit: limit)
      // Back to the first record, to read it again. (With none yet, what was passed was
      // blank lines and the framing before them: not kept, so any number of them fits.)
      if tally.records > 0 { (position, line, lineStart, framing) = saved }
      // An error after some records: the schema is theirs, and the error is said when the
      // reading reaches it, after they are handed over.
      if sampleEndedAtError { return (tally.schema(complete: false), false, tally) }
      let enough = tally.records >= limit
      if tally.records == 0 { try checkRecordLength() }
      if enough || atEnd || (tally.records > 0 && buffer.count >= bytes) {
        if tally.records == 0, let csv = delimited?.columns {
          // A header and no rows: the columns are fields, with no value in any record.
          return (
            Schema(csv.tree.names.map { Schema.Field($0, .null, optional: true) }), true, nil
          )
        }
        return (tally.schema(complete: atEnd && !enough), atEnd && !enough, tally)
      }
      if tally.records > 0, !input.hasData(within: DataReader.pauseMilliseconds) {
        return (tally.schema(complete: false), false, tally)
      }
      try fill(minimum: buffer.count)
    }
  }

  /// Infers the schema from the whole input rather than its first records, before any record
  /// is read: for a query that names a field the first records lack. A file is read through
  /// once more, a record at a time; standard input is kept in memory to be read again.
  public func inferWhole() throws(DataError) {
    guard !sawEverything, schemaVersion == 0 else { return }
    let schema: Schema
    if let path, size != nil {
      let whole = try DataReader(
        path: path, format: format, options: options, blockSize: blockSize)
      schema = try whole.tallyToEnd()
    } else {
      schema = try infer(records: .max, bytes: .max).0
    }
    adopt(schema)
    sawEverything = true
  }

  /// For an input with no fields (``isEmpty``), fields called `names` with no value in any
  /// record, so that a query that reads them checks and matches nothing, as `grep` finds
  /// nothing in an empty file.
  public func assumeFields(_ names: [String]) {
    guard isEmpty else { return }
    adopt(Schema(names.map { Schema.Field($0, .null, optional: true) }))
    schemaVersion = 0
  }

  /// Tallies every record from here to the end of the input, keeping only the block being read.
  fileprivate func tallyToEnd() throws(DataError) -> Schema {
    let tally = SampleTally()
    var records: [DataRecord] = []
    while true {
      try parse(&records, decode: false, tally: tally)
      if atEnd { break }
      try fill()
    }
    return tally.schema(complete: true)
  }
}
