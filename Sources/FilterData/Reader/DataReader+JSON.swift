import FilterDSL

/// Reading JSON and JSON Lines: the framing of records (`[`, `,`, `]`, one per line) and the
/// records themselves.
extension DataReader {
  func jsonRecords(
    _ scanner: inout JSONScanner, _ records: inout [DataRecord], decode: Bool,
    tally: RecordTally?, limit: Int
  ) -> Result<Void, DataProblem> {
    // Records read into columns go to `rows`, taken out of the reader meanwhile.
    var rows = self.rows
    self.rows = nil
    defer { self.rows = rows }
    var count = 0
    while count < limit {
      let saved = (scanner.index, scanner.newlines, scanner.lineStart)
      let (savedFraming, savedGrowth) = (framing, growth.mark)
      growth.line = line
      do throws(DataProblem) {
        guard let start = try jsonFrame(&scanner) else {
          commit(&scanner)
          break
        }
        if let tally {
          try scanner.tally(record: tally, depth: 0)
          try endOfLine(&scanner)
        } else {
          // Into columns, or as a record.
          let intoRows = decode && rows != nil
          var values: [Value] = []
          if intoRows {
            try rows?.read(&scanner, layout)
          } else {
            values = try scanner.record(layout, depth: 0)
          }
          if !growth.pending.isEmpty {
            // Read the record again once the schema has grown to hold it (and what the
            // records after it need, so that it grows once for all of them).
            if intoRows { rows?.drop() }
            lookAhead(&scanner)
            (scanner.index, scanner.newlines, scanner.lineStart) = saved
            framing = savedFraming
            return .success(())
          }
          let end = scanner.index
          try endOfLine(&scanner)
          if intoRows {
            rows?.keep(text: start..<end, in: scanner.bytes)
          } else if decode {
            records.append(
              DataRecord(values: values, text: buffer[start..<end], format: recordFields))
          }
        }
        if framing == .single { framing = .done }
      } catch {
        rows?.drop()
        if error.truncated {
          (scanner.index, scanner.newlines, scanner.lineStart) = saved
          framing = savedFraming
          growth.rewind(to: savedGrowth)
        }
        return .failure(error)
      }
      commit(&scanner)
      count += 1
    }
    return .success(())
  }

  /// In JSON Lines, only spaces may follow a record on its line: a record is kept only once
  /// that is checked (a malformed line gives no record).
  @inline(__always)
  private func endOfLine(_ scanner: inout JSONScanner) throws(DataProblem) {
    guard framing == .lines else { return }
    while let byte = scanner.peek, byte == 0x20 || byte == 0x09 || byte == 0x0D {
      scanner.index += 1
    }
    if let byte = scanner.peek, byte != 0x0A {
      throw scanner.unexpected("the end of the line after the record")
    }
  }

  /// After a record that needs the schema to grow: notes what the records after it need too
  /// (``growthLookahead`` of them at most), so that the schema grows once for all of them,
  /// not once per record (each growth costs as much as the schema is wide). Stops at the
  /// first record that is incomplete or malformed: that one is read, and reported, in turn.
  func lookAhead(_ scanner: inout JSONScanner) {
    noting {
      for _ in 0..<growthLookahead {
        guard framing != .single, (try? jsonFrame(&scanner)) != nil,
          (try? scanner.check(layout, depth: 0)) != nil
        else { return }
      }
    }
  }

  /// Moves past what comes before the next JSON record (`[`, `,`) and returns where the record
  /// starts, or nil when no record follows.
  func jsonFrame(_ scanner: inout JSONScanner) throws(DataProblem) -> Int? {
    scanner.skipSpace()
    switch framing {
    case .start:
      guard let byte = scanner.peek else {
        framing = .done
        return nil
      }
      if !options.root.isEmpty {
        try scanner.descend(into: options.root)
        enteredRoot = true
      } else if byte == 0x7B {
        framing = .single
        break
      } else {
        guard byte == 0x5B else { throw scanner.unexpected("'[' or '{' to begin the JSON data") }
        scanner.index += 1
      }
      // Inside the list of records.
      framing = .opened
      return try jsonFrame(&scanner)
    case .opened:
      // (Blank to the end of the buffer: read on.)
      guard let byte = scanner.peek else { return nil }
      if byte == 0x5D {
        scanner.index += 1
        framing = .done
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
        framing = .done
        return nil
      }
      guard byte == 0x2C else { throw scanner.unexpected("',' or ']' after the record") }
      scanner.index += 1
      framing = .separated
      return try jsonFrame(&scanner)
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
    if framing == .opened || framing == .separated { framing = .next }
    return scanner.index
  }

  func commit(_ scanner: inout JSONScanner) {
    position = scanner.index
    line += scanner.newlines
    scanner.newlines = 0
    lineStart = scanner.lineStart
  }

  /// After the last block: nothing but whitespace may follow the data.
  func checkEnd() throws(DataError) {
    guard format.separator == nil else { return }
    let result: Result<Void, DataProblem> = buffer.withUnsafeBufferPointer { bytes in
      var scanner = JSONScanner(bytes, from: position, to: bytes.count)
      scanner.skipSpace()
      if framing == .next || framing == .opened {
        return .failure(
          .truncated(scanner.index, "the JSON array is never closed", help: "add ']' at the end"))
      }
      if framing == .separated {
        return .failure(.truncated(scanner.index, "the input ends where a record belongs"))
      }
      if enteredRoot && framing == .done {
        do throws(DataProblem) {
          try scanner.ascend(levels: options.root.count)
          scanner.skipSpace()
        } catch {
          return .failure(error)
        }
      }
      if scanner.peek != nil {
        return .failure(scanner.unexpected("the end of the data"))
      }
      return .success(())
    }
    if case .failure(let problem) = result {
      throw error(problem, newlines: 0, lineStart: lineStart)
    }
  }
}
