import FilterDSL

/// The reader's buffer and the records in it: more input read onto its end (what was parsed
/// dropped from its front), and the complete records from ``DataReader/position`` parsed.
extension DataReader {
  /// Throws when the record being read (from ``position`` on, not yet complete) is longer
  /// than ``maxRecordBytes``.
  func checkRecordLength() throws(DataError) {
    guard buffer.count - position > maxRecordBytes else { return }
    // The record's own line: the reader stands at the end of the record before it, before
    // the line break between them.
    var recordLine = line
    for byte in buffer[position...] {
      guard byte == 0x0A || byte == 0x0D || byte == 0x20 || byte == 0x09 else { break }
      if byte == 0x0A { recordLine += 1 }
    }
    throw DataError.file(
      input.name,
      "has a record longer than \(maxRecordBytes >> 20) MiB with no end in sight (line \(recordLine)); is it the right file, in the right format?"
    )
  }

  /// Reads the next block onto the end of the buffer (at least `minimum` bytes when the input
  /// has them), dropping what was read before ``position``, except the last
  /// ``DataReader/keptLineBytes`` of the current line (errors show them). Returns how many
  /// bytes were dropped from the front: every offset into the buffer moves back by that.
  @discardableResult
  func fill(minimum: Int = 0) throws(DataError) -> Int {
    let keep = Swift.min(position, Swift.max(lineStart, position - DataReader.keptLineBytes, 0))
    let rest = buffer.count - keep
    // Doubling for a long record, but not far past the longest one allowed: the check after
    // this read then speaks with about that much held, not twice it.
    var want = Swift.max(blockSize, minimum, Swift.min(rest, maxRecordBytes + blockSize - rest))
    // A file's room is at most what it has left, and a byte to find its end: a small file
    // takes a buffer of its size, not a block's (under AddressSanitizer, 4 MiB a reader made
    // the readers fuzzer half as fast). (Not when it has grown since it was opened, nor for
    // gzip data, whose size says nothing of what it holds.)
    if let size = input.size, !input.isCompressed, size - input.bytesRead > 0 {
      want = Swift.min(want, size - input.bytesRead + 1)
    }
    var next: [UInt8]
    var read = 0
    if let job = ahead {
      // The block decoded while this buffer was parsed (or now).
      self.ahead = nil
      let ahead = job.block()
      if let failure = ahead.failure { throw failure }
      if keep == ahead.from { aheadCounts.taken += 1 } else { aheadCounts.joined += 1 }
      (next, read) = (ahead.buffer(keeping: keep, of: buffer), ahead.read)
      if !input.isExhausted, ahead.read > 0, ahead.read < want {
        // More than a block (a long record): the rest read now, an error it meets said at
        // the next read, after the bytes before it (as when the whole was read at once).
        read += next.append(upTo: want - ahead.read, input.readMore(into:))
      }
    } else if keep == 0 && rest >= blockSize {
      // Nothing to drop, and a record longer than a block: read onto the end in place (all
      // of `want`, waiting for it), so that a long record that comes a little at a time (a
      // pipe) is not copied at each read.
      // Past half the longest record allowed, room for all of it at once: else the last
      // step copies the buffer again, and a 256 MiB line is held twice (a gzip bomb of one
      // line peaked at 580 MB). (The room is only reserved: touched as it is read into.)
      if buffer.count + want > buffer.capacity, buffer.count + want > maxRecordBytes / 2 {
        buffer.reserveCapacity(maxRecordBytes + blockSize + 1)
      }
      read = try buffer.append(upTo: want) { space throws(DataError) in
        try self.read(into: space, patient: true)
      }
      next = buffer  // (not a copy: `buffer` is not changed again)
    } else {
      // The rest and the next block in a new buffer, read straight into it (not zeroed
      // first: with the copy to a buffer zeroed, a tenth of a load's time; and the first
      // read of a reader, whose room zeroed took seconds in a build for ThreadSanitizer).
      let patient = rest >= blockSize
      next = try [UInt8](buffer[keep...], thenUpTo: want) { space throws(DataError) in
        read = try self.read(into: space, patient: patient)
        return read
      }
    }
    bytesRead = input.bytesRead
    // The end: nothing more came, or the input found its end (a read that gave nothing).
    if read == 0 || input.isExhausted { atEnd = true }
    defer {
      // The next block of a gzip file, decoded while this one is parsed; not while a record
      // longer than a block is read (it would copy the record so far for the next buffer:
      // twice a 256 MiB line held at once), which the next fill reads onto its end in place.
      if !atEnd, readsAhead, input.size != nil, input.isCompressed {
        let kept = likelyKeep
        if buffer.count - kept < blockSize {
          ahead = ReadAhead(input, after: buffer, keeping: kept, count: blockSize)
        }
      }
    }
    guard keep > 0 else {
      buffer = next
      return 0
    }
    // Count the characters of the current line among the bytes dropped.
    let from = Swift.max(lineStart, 0)
    let columns = DataReader.codePoints(buffer[from..<Swift.max(keep, from)])
    droppedColumns = lineStart >= 0 ? columns : droppedColumns + columns
    lineStart -= keep
    position -= keep
    bufferOffset += keep
    buffer = next
    return keep
  }

  /// Where the next ``fill(minimum:)`` will most likely keep the buffer from: records end
  /// at line ends, and the reader stops at the one after the last complete record (before
  /// it: `position` is there) and keeps its line (`lineStart`), or the end of it.
  private var likelyKeep: Int {
    guard let last = buffer.lastIndex(of: 0x0A) else { return 0 }
    let shown = Swift.max(last - DataReader.keptLineBytes, 0)
    return buffer[shown..<last].lastIndex(of: 0x0A).map { $0 + 1 } ?? shown
  }

  /// Reads into `space`: at least one read's worth, and more while the input has bytes
  /// ready; all of it (waiting for them) when `patient`, while a record longer than a block
  /// is read: it cannot be handed out before its end anyway, and a pipe gives tens of
  /// kilobytes a read, so a record megabytes long is then read in steps that double and
  /// scanned a few times, not once a piece (a 20 MB line took 9 s).
  private func read(into space: UnsafeMutableRawBufferPointer, patient: Bool) throws(DataError)
    -> Int
  {
    var total = try input.read(into: space)
    // (A regular file, compressed or not, gives all that was asked unless it ended or failed.)
    while input.isStream, total > 0, total < space.count, !input.isExhausted,
      patient || input.hasData(within: 0)
    {
      let more = input.readMore(into: UnsafeMutableRawBufferPointer(rebasing: space[total...]))
      guard more > 0 else { break }
      total += more
    }
    return total
  }

  /// Parses the complete records of the buffer from `position`: decodes them into `records`,
  /// or tallies them into `tally`. Stops before a record cut off by the end of the buffer.
  /// Records decoded one per line are read in two parts at once where the buffer holds
  /// enough of them (see ``readInParts(_:limit:)``).
  func parse(
    _ records: inout [DataRecord], decode: Bool, tally: SampleTally? = nil,
    limit: Int = .max
  ) throws(DataError) {
    if let grownSchema {
      adopt(grownSchema)
      self.grownSchema = nil
    }
    // Records of thousands of fields (a file whose records each bring new keys) come in
    // blocks of fewer records, so that a block holds about as many values as a usual one.
    // Rows read into columns hold only the cells they set, whatever the width: their blocks
    // are not cut (cut, a block of 52 rows made a table, and a compiled query, of 10,000
    // columns: a query naming a late key was quadratic).
    let limit =
      decode && rows == nil
      ? Swift.min(limit, Swift.max(1, Self.blockValues / Swift.max(1, layout.width))) : limit
    if decode && tally == nil && readInParts(&records, limit: limit) { return }
    let (result, newlines, lastLineStart) = scan(
      &records, decode: decode, tally: tally, limit: limit)
    if case .failure(let problem) = result {
      // A record cut off by the end of the buffer: the records before it are read, and the
      // values that did not convert reported now, while the buffer still holds them.
      if problem.truncated && !atEnd {
        reportFailures()
        return
      }
      // Records read before the error are handed over first (they stream, as the ones of
      // the blocks before did); the next read throws it.
      if stopsSampleAtError, let tally, tally.records > 0 {
        sampleEndedAtError = true
        return
      }
      let readBefore = !records.isEmpty || (rows?.count ?? 0) > 0 || (secondRows?.count ?? 0) > 0
      if decode && tally == nil && readBefore {
        pendingFailure = (problem, newlines, lastLineStart)
        reportFailures()
        return
      }
      throw try failure(problem, newlines: newlines, lineStart: lastLineStart)
    }
    if !growth.pending.isEmpty { grow() }
    reportFailures()
  }

  /// Scans the records from `position` to ``end`` (the buffer's end when nil): what
  /// ``parse(_:decode:tally:limit:)`` does but for what it does after a failure or a value
  /// that does not fit. Returns the failure, if any, with the newlines passed to it and where
  /// its line starts.
  func scan(
    _ records: inout [DataRecord], decode: Bool, tally: SampleTally?, limit: Int
  ) -> (Result<Void, DataProblem>, newlines: Int, lineStart: Int) {
    var newlines = 0
    var lastLineStart = lineStart
    let result: Result<Void, DataProblem> = buffer.withUnsafeBufferPointer { bytes in
      let end = Swift.min(self.end ?? bytes.count, bytes.count)
      if let delimited {
        var scanner = delimited.scanner(bytes, from: position, to: end, atEnd: atEnd)
        scanner.lineStart = lineStart
        defer {
          (newlines, lastLineStart) = (scanner.newlines, scanner.lineStart)
        }
        return csvRecords(
          &scanner, delimited.columns, &records, decode: decode, tally: tally, limit: limit)
      }
      var scanner = JSONScanner(bytes, from: position, to: end)
      scanner.nulls = nulls
      scanner.lineStart = lineStart
      defer {
        (newlines, lastLineStart) = (scanner.newlines, scanner.lineStart)
      }
      return jsonRecords(&scanner, &records, decode: decode, tally: tally, limit: limit)
    }
    return (result, newlines, lastLineStart)
  }
}
