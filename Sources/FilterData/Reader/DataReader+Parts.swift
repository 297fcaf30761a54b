import Dispatch

/// Reading a buffer of records in two parts at once, one on each core: the rest of the
/// buffer is cut at a line end past its middle, and both parts are read as the reader would
/// read them in turn. Where a record is one line (JSON Lines, CSV, the usual JSON array of a
/// record a line) the cut is a record's end unless a record spans lines (a quoted line break
/// in CSV, a JSON record written over several lines); the first part tells which: it ends
/// exactly at the cut, after a record (in an array, after the comma that follows it), only if
/// the cut is a record's end.
///
/// What the parts read is kept only when it is what reading in turn would give: the first
/// part read cleanly (no error, no value that does not fit the schema or its fixed types),
/// and the second is kept only if the first ended at the cut and the second read cleanly too.
/// Otherwise the reader reads in turn, as it always did, and says what it finds there, with
/// the right place.
extension DataReader {
  /// The least a part holds: a rest of the buffer shorter than two of them is read in turn.
  /// (Small for the small blocks of tests, so that they cut their buffers too.)
  var partBytes: Int { Swift.max(1, Swift.min(blockSize / 4, 64 << 10)) }

  /// Reads the records of the rest of the buffer in two parts at once into `records` (at
  /// most `limit` in each part), and moves past them. Returns false, having changed nothing,
  /// when the rest is not cut (too short, a JSON array, where the first part did not read
  /// cleanly or read nothing, or records are wide: blocks of few records), and for a few
  /// blocks after the first part did not read cleanly: the caller then reads in turn.
  func readInParts(_ records: inout [DataRecord], limit: Int) -> Bool {
    guard readsInParts, let atCut = framing.atCut, end == nil, limit >= 2_048,
      buffer.count - position >= 2 * partBytes
    else { return false }
    // After parts that were not kept (the schema grew, say), the next few blocks are read in
    // turn: records that each bring new keys would otherwise be read twice.
    if partsDeclined > 0 {
      partsDeclined -= 1
      return false
    }
    guard let cut = cut() else { return false }
    if cuts.count < 64 { cuts.append(bufferOffset + cut) }
    let parts = Parts(
      first: DataReader(part: self, from: position, to: cut, atEnd: false),
      second: DataReader(part: self, from: cut, to: buffer.count, atEnd: atEnd))
    let (first, second) = (parts.first, parts.second)
    second.framing = atCut
    if rows != nil {
      // Each part reads into rows of its own (the second part's are kept from block to
      // block, as the reader's are, for what they learned of the values).
      (first.rows, second.rows) = (rows, secondRows ?? ColumnRows())
      (rows, secondRows) = (nil, nil)
    }
    DispatchQueue.concurrentPerform(iterations: 2) { part in
      (part == 0 ? parts.first : parts.second).readPart(limit: limit)
    }
    let firstCount = first.readCount
    (rows, secondRows) = (first.rows, second.rows)
    (first.rows, second.rows) = (nil, nil)
    guard first.readCleanly, firstCount > 0 else {
      rows?.removeAll()
      secondRows?.removeAll()
      partsDeclined = 8
      return false
    }
    var newlines = first.line - line
    var last = first
    // The first part's records taken as they are when the block has none yet (appending
    // them would copy each, retaining what it holds).
    var kept: [DataRecord] = []
    swap(&kept, &first.partRecords)
    if records.isEmpty { swap(&records, &kept) } else { records += kept }
    if firstCount < limit, second.readCleanly, first.framing == atCut,
      let gap = lineEnds(from: first.position, to: cut)
    {
      newlines += gap + second.line - line
      last = second
      partsKept += 1
      records += second.partRecords
    } else {
      secondRows?.removeAll()
    }
    (position, line, lineStart) = (last.position, line + newlines, last.lineStart)
    framing = last.framing
    return true
  }

  /// The two parts' readers, each used by one thread until both are done.
  private struct Parts: @unchecked Sendable {
    // Unchecked: each reader is read and changed by its own iteration only, and by the caller
    // after `concurrentPerform` returns; what they share (the buffer) is not changed.
    let first: DataReader
    let second: DataReader
  }

  /// Just past the first line end at or after the middle of the rest of the buffer (nil if
  /// there is none before its last byte).
  private func cut() -> Int? {
    let middle = position + (buffer.count - position) / 2
    guard let newline = buffer[middle...].firstIndex(of: 0x0A), newline + 1 < buffer.count
    else { return nil }
    return newline + 1
  }

  /// How many line ends `buffer[from..<to]` holds, if it holds nothing but spaces (what is
  /// left of the first part after its last record); nil otherwise.
  private func lineEnds(from: Int, to: Int) -> Int? {
    var count = 0
    for byte in buffer[from..<to] {
      switch byte {
      case 0x0A: count += 1
      case 0x20, 0x09, 0x0D: continue
      default: return nil
      }
    }
    return count
  }

  /// How many records a part read.
  private var readCount: Int { partRecords.count + (rows?.count ?? 0) }

  /// In a part: reads its records into ``partRecords`` (or ``rows``) and notes whether it
  /// read cleanly.
  private func readPart(limit: Int) {
    var records: [DataRecord] = []
    let (result, _, _) = scan(&records, decode: true, tally: nil, limit: limit)
    if case .failure(let problem) = result, !problem.truncated || atEnd { return }
    guard growth.pending.isEmpty, growth.failures.isEmpty, growth.unreported.isEmpty else {
      return
    }
    (partRecords, readCleanly) = (records, true)
  }
}
