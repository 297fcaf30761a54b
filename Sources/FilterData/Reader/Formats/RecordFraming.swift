import FilterDSL

/// How records follow one another in the input, and where the reader stands among them: one
/// a line (JSON Lines, CSV, TSV), inside a JSON array (`[`, records separated by commas, `]`),
/// a single JSON object, or the array under a ``ReadOptions/root`` path.
struct RecordFraming: Equatable {
  /// Where the reader is: before a JSON document's `[` (or its single object); inside the
  /// array, after `[` (`opened`), after a record (`next`) or after a comma (`separated`);
  /// after its `]` (or the object). Records a line stay in `lines`.
  enum State: Equatable { case start, opened, next, separated, done, lines, single }

  var state: State
  /// The keys leading to the records of a JSON document (empty: the document's top).
  let root: [String]
  /// Whether the reader stepped down to the records at ``root``.
  var enteredRoot = false

  /// Records a line, or (`document`) a JSON document's records under `root`.
  init(document: Bool, root: [String]) {
    (state, self.root) = (document ? .start : .lines, root)
  }

  /// How the framing stands at a cut that is a record's end (see `DataReader.readInParts`):
  /// one record a line, or in a JSON array (of records a line each, as most are written),
  /// after the comma that follows one. Nil where buffers are not cut: a single JSON object,
  /// an array under a root key, the end of the array.
  var atCut: RecordFraming? {
    var cut = self
    switch state {
    case .lines: return cut
    case .start, .opened, .next, .separated:
      guard root.isEmpty else { return nil }
      cut.state = .separated
      return cut
    default: return nil
    }
  }

  /// Moves past what comes before the next JSON record (`[`, `,`) and returns where the record
  /// starts, or nil when no record follows.
  mutating func frame(_ scanner: inout JSONScanner) throws(DataProblem) -> Int? {
    scanner.skipSpace()
    switch state {
    case .start:
      guard let byte = scanner.peek else {
        state = .done
        return nil
      }
      if !root.isEmpty {
        try scanner.descend(into: root)
        enteredRoot = true
      } else if byte == 0x7B {
        state = .single
        break
      } else {
        guard byte == 0x5B else { throw scanner.unexpected("'[' or '{' to begin the JSON data") }
        scanner.index += 1
      }
      // Inside the list of records.
      state = .opened
      return try frame(&scanner)
    case .opened:
      // (Blank to the end of the buffer: read on.)
      guard let byte = scanner.peek else { return nil }
      if byte == 0x5D {
        scanner.index += 1
        state = .done
        return nil
      }
    case .separated:
      guard scanner.peek != nil else { return nil }
    case .next:
      guard let byte = scanner.peek else {
        throw .truncated(
          scanner.index, "the JSON array is never closed", help: "add ']' at the end")
      }
      if byte == 0x5D {
        scanner.index += 1
        state = .done
        return nil
      }
      guard byte == 0x2C else { throw scanner.unexpected("',' or ']' after the record") }
      scanner.index += 1
      state = .separated
      return try frame(&scanner)
    case .lines:
      guard scanner.peek != nil else { return nil }
    case .done, .single:
      return nil
    }
    guard scanner.peek == 0x7B else {
      if scanner.peek == nil {
        throw .truncated(scanner.index, "the input ends where a record belongs")
      }
      throw DataProblem(
        code: .invalidRecord, message: "records must be JSON objects",
        label: "expected '{' here", help: "write each record as an object: {\"name\": value, …}",
        offset: scanner.index)
    }
    // A record follows: after it, a comma or the end of the array.
    if state == .opened || state == .separated { state = .next }
    return scanner.index
  }

  /// In JSON Lines, only spaces may follow a record on its line: a record is kept only once
  /// that is checked (a malformed line gives no record).
  @inline(__always)
  func endOfLine(_ scanner: inout JSONScanner) throws(DataProblem) {
    guard state == .lines else { return }
    while let byte = scanner.peek, byte == 0x20 || byte == 0x09 || byte == 0x0D {
      scanner.index += 1
    }
    if let byte = scanner.peek, byte != 0x0A {
      throw scanner.unexpected("the end of the line after the record")
    }
  }

  /// After the last record of a JSON input, what is wrong with the rest (`scanner` from where
  /// the records ended), or nil: nothing but whitespace may follow the data.
  func checkEnd(_ scanner: inout JSONScanner) -> DataProblem? {
    scanner.skipSpace()
    if state == .next || state == .opened {
      return .truncated(scanner.index, "the JSON array is never closed", help: "add ']' at the end")
    }
    if state == .separated {
      return .truncated(scanner.index, "the input ends where a record belongs")
    }
    if enteredRoot && state == .done {
      do throws(DataProblem) {
        try scanner.ascend(levels: root.count)
        scanner.skipSpace()
      } catch {
        return error
      }
    }
    return scanner.peek != nil ? scanner.unexpected("the end of the data") : nil
  }
}
