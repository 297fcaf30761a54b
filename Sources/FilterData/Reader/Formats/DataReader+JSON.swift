import FilterDSL

/// Reading JSON and JSON Lines: the framing of records (`[`, `,`, `]`, one per line) and the
/// records themselves.
extension DataReader {
  func jsonRecords(
    _ scanner: inout JSONScanner, _ records: inout [DataRecord], decode: Bool,
    tally: SampleTally?, limit: Int
  ) -> Result<Void, DataProblem> {
    // The reader's state, in locals while its records are read (each read of a property of
    // the reader is checked for exclusive access at run time, and each copy of the optional
    // rows retained all they hold: a tenth of a load's time), and back at the end. Records
    // read into columns go to `rows`, taken out of the reader meanwhile.
    var rows = self.rows
    self.rows = nil
    let intoRows = decode && rows != nil
    var framing = self.framing
    let (layout, growth) = (self.layout, self.growth)
    var (line, position, lineStart) = (self.line, self.position, self.lineStart)
    defer {
      self.rows = rows
      self.framing = framing
      (self.line, self.position, self.lineStart) = (line, position, lineStart)
    }
    // Where the growth log stood before the record being read (taken again only after the
    // log changed).
    var (mark, reports) = (growth.mark, growth.reports)
    var count = 0
    while count < limit {
      let saved = (scanner.index, scanner.newlines, scanner.lineStart)
      let savedFraming = framing
      if growth.reports != reports { (mark, reports) = (growth.mark, growth.reports) }
      growth.line = line
      do throws(DataProblem) {
        guard let start = try framing.frame(&scanner) else {
          commit(&scanner)
          break
        }
        if let tally {
          try tally.add { (record: inout RecordTally) throws(DataProblem) in
            try scanner.tally(record: &record, depth: 0)
          }
          try framing.endOfLine(&scanner)
        } else {
          // Into columns, or as a record.
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
            self.framing = framing
            lookAhead(&scanner)
            (scanner.index, scanner.newlines, scanner.lineStart) = saved
            framing = savedFraming
            return .success(())
          }
          let end = scanner.index
          try framing.endOfLine(&scanner)
          if intoRows {
            rows?.keep(text: start..<end, in: scanner.bytes)
          } else if decode {
            records.append(
              DataRecord(values: values, text: buffer[start..<end], format: recordFields))
          }
        }
        if framing.state == .single { framing.state = .done }
      } catch {
        rows?.drop()
        if error.truncated {
          (scanner.index, scanner.newlines, scanner.lineStart) = saved
          framing = savedFraming
          growth.rewind(to: mark)
        }
        return .failure(error)
      }
      commit(&scanner)
      count += 1
    }
    return .success(())

    /// Moves the reader's place to the scanner's.
    func commit(_ scanner: inout JSONScanner) {
      position = scanner.index
      line += scanner.newlines
      scanner.newlines = 0
      lineStart = scanner.lineStart
    }
  }

  /// After a record that needs the schema to grow: notes what the records after it need too
  /// (``growthLookahead`` of them at most), so that the schema grows once for all of them,
  /// not once per record (each growth costs as much as the schema is wide). Stops at the
  /// first record that is incomplete or malformed: that one is read, and reported, in turn.
  func lookAhead(_ scanner: inout JSONScanner) {
    noting {
      for _ in 0..<growthLookahead {
        guard framing.state != .single, (try? framing.frame(&scanner)) != nil,
          (try? scanner.check(layout, depth: 0)) != nil
        else { return }
      }
    }
  }

  /// After the last block: nothing but whitespace may follow the data.
  func checkEnd() throws(DataError) {
    guard delimited == nil else { return }
    let problem = buffer.withUnsafeBufferPointer { bytes in
      var scanner = JSONScanner(bytes, from: position, to: bytes.count)
      return framing.checkEnd(&scanner)
    }
    if let problem { throw error(problem, newlines: 0, lineStart: lineStart) }
  }
}
