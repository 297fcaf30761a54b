import FilterDSL

/// Reading CSV: the header, then rows decoded column by column into fields (nested for dotted
/// header names).
extension DataReader {

  /// The bytes of the first line outside quotes, each with the byte after it (0 at the end).
  /// The line is read whole first (up to 64 KiB), so that the answer does not depend on how
  /// much of it one read brought.
  func firstLineOutsideQuotes() throws(DataError) -> [(UInt8, UInt8)] {
    let most = 1 << 16
    while true {
      var bytes: [(UInt8, UInt8)] = []
      var quoted = false
      var ended = false
      let line = buffer[position...].prefix(most)
      for index in line.indices {
        let byte = line[index]
        if byte == 0x22 { quoted.toggle() }
        if quoted { continue }
        if byte == 0x0A {
          ended = true
          break
        }
        bytes.append((byte, index + 1 < line.endIndex ? line[index + 1] : 0))
      }
      if !ended && !atEnd && buffer.count - position < most {
        try fill(minimum: buffer.count)
        continue
      }
      return bytes
    }
  }

  /// The names of the columns: the first row's, or with ``ReadOptions/header`` false,
  /// `column1`, `column2`, ... for as many cells as the first row has (which stays a record).
  /// An empty name (R's `write.csv` leaves the row numbers' column unnamed) is named by its
  /// place as those are: a field needs a name, and SQL a column.
  static func readHeader(_ reader: DataReader) throws(DataError) -> [String] {
    let saved = (reader.position, reader.line, reader.lineStart)
    let names = try readFirstRow(reader)
    guard !reader.options.header else {
      let given = Set(names)
      return names.enumerated().map { column, name in
        guard name.isEmpty else { return name }
        // (A name the header has elsewhere is not taken twice.)
        var candidate = "column\(column + 1)"
        while given.contains(candidate) { candidate = "_" + candidate }
        return candidate
      }
    }
    (reader.position, reader.line, reader.lineStart) = saved
    return names.indices.map { "column\($0 + 1)" }
  }

  private static func readFirstRow(_ reader: DataReader) throws(DataError) -> [String] {
    guard let syntax = reader.delimited else { return [] }
    while true {
      var scanner: CSVScanner? = nil
      var header: [String]? = nil
      let result: Result<Void, DataProblem> = reader.buffer.withUnsafeBufferPointer { bytes in
        var s = syntax.scanner(
          bytes, from: reader.position, to: bytes.count, atEnd: reader.atEnd)
        defer { scanner = s }
        do throws(DataProblem) {
          if try s.record(into: &reader.cells) != nil {
            header = reader.cells.map { s.text($0) }
          }
          return .success(())
        } catch {
          return .failure(error)
        }
      }
      if case .failure(let problem) = result {
        if problem.truncated && !reader.atEnd {
          try reader.checkRecordLength()
          try reader.fill(minimum: reader.buffer.count)
          continue
        }
        throw try reader.failure(
          problem, newlines: scanner?.newlines ?? 0, lineStart: scanner?.lineStart ?? 0)
      }
      guard let header, let scanner else { return [] }
      reader.position = scanner.index
      reader.line += scanner.newlines
      reader.lineStart = scanner.lineStart
      return header
    }
  }

  /// A column to decode: where its cells go, as what, and its name for messages.
  struct CSVTarget {
    var column: Int
    var path: [Int]
    var type: ValueType
    /// The names on the way to the field.
    var names: [String]

    /// Where its cells go, in plain numbers.
    var place: CSVPlace {
      CSVPlace(column: column, slot: path.first ?? -1, flat: path.count == 1)
    }
  }

  /// A target's column, its top-level field's slot, and whether the column is that field (not
  /// a field nested in it).
  struct CSVPlace {
    let column: Int
    let slot: Int
    let flat: Bool
  }

  /// The columns of a top-level field nested by name (`camera.megapixels`, `camera.zoom`), when
  /// they are side by side: the bytes from the first one's cell to the last one's (the cells
  /// and the commas between them, `48,3`) then spell the field's value, which its coded column
  /// remembers by them as it remembers a single cell's spelling. (Decoded, the cells made a
  /// record value for every row, hashed to find its code: most of a CSV load's time.)
  struct CSVNest {
    let slot: Int
    /// The targets of the field, in the order of their columns.
    let targets: [Int]
    /// The first column and the last.
    let columns: ClosedRange<Int>
  }

  /// The nests of `targets`: for each top-level field whose columns are side by side, and
  /// which no other target shares.
  func csvNests(_ targets: [CSVTarget]) -> [CSVNest] {
    var bySlot: [Int: [Int]] = [:]
    for (index, target) in targets.enumerated() where target.path.count > 1 {
      bySlot[target.path[0], default: []].append(index)
    }
    return bySlot.compactMap { slot, indices in
      let sorted = indices.sorted { targets[$0].column < targets[$1].column }
      guard let first = sorted.first.map({ targets[$0].column }),
        let last = sorted.last.map({ targets[$0].column }),
        last - first + 1 == sorted.count,
        !targets.contains(where: { $0.path.count == 1 && $0.path[0] == slot })
      else { return nil }
      return CSVNest(slot: slot, targets: sorted, columns: first...last)
    }.sorted { $0.slot < $1.slot }
  }

  /// The columns of fields the layout needs.
  func csvTargets(_ csv: CSVColumns) -> [CSVTarget] {
    csv.paths.enumerated().compactMap { column, path in
      guard let top = path.first, layout.isNeeded(top),
        let (type, names) = fieldType(path)
      else { return nil }
      return CSVTarget(column: column, path: path, type: type, names: names)
    }
  }

  func csvRecords(
    _ scanner: inout CSVScanner, _ csv: CSVColumns, _ records: inout [DataRecord],
    decode: Bool, tally: SampleTally?, limit: Int
  ) -> Result<Void, DataProblem> {
    // The loop works on locals, and commits to the reader's properties once at the end.
    var cells: [CSVCell] = []
    swap(&cells, &self.cells)
    defer { swap(&cells, &self.cells) }
    // Records read into columns go to `rows`, taken out of the reader meanwhile.
    let intoRows = self.rows != nil
    var rows = self.rows ?? ColumnRows()
    self.rows = nil
    defer { if intoRows { self.rows = rows } }
    let targets = csvTargets(csv)
    let nests = csvNests(targets)
    var places = targets.map(\.place)
    // A nest's targets are read with it, not one by one.
    for nest in nests {
      for index in nest.targets {
        places[index] = CSVPlace(column: places[index].column, slot: -1, flat: false)
      }
    }
    let columns = csv.header.count
    var count = 0
    var line = self.line
    var result = Result<Void, DataProblem>.success(())
    while count < limit {
      // Blank lines are passed for good, and their lines counted.
      scanner.skipBlankLines()
      line += scanner.newlines
      scanner.newlines = 0
      let saved = (scanner.index, scanner.newlines, scanner.lineStart)
      do throws(DataProblem) {
        guard let text = try scanner.record(into: &cells) else { break }
        guard cells.count == columns else {
          throw DataProblem(
            code: .raggedRow,
            message:
              "this row has \(cells.count) field\(cells.count == 1 ? "" : "s") where the header has \(columns)",
            label: "row starts here",
            help: "every row needs one value per column; quote values that contain commas",
            offset: text.lowerBound)
        }
        if let tally {
          tally.add { record in csv.tally(cells, scanner, into: &record) }
        } else if decode {
          var values: [Value] = []
          if intoRows {
            csvCells(
              csv, cells, scanner, targets, places, nests, row: text, line: line, into: &rows)
          } else {
            values = csvValues(csv, cells, scanner, targets, row: text, line: line)
          }
          if !growth.pending.isEmpty {
            // Read the row again once the schema has grown to hold it (and what the rows
            // after it need, so that it grows once for all of them).
            rows.drop()
            csvLookAhead(scanner, csv, targets, line: line)
            (scanner.index, scanner.newlines, scanner.lineStart) = saved
            break
          }
          if intoRows {
            rows.keep(text: text, in: scanner.bytes)
          } else {
            records.append(DataRecord(values: values, text: buffer[text], format: recordFields))
          }
        }
      } catch {
        // Back to the record's start; an error keeps the scanner's count of lines up to the
        // place it names (a ragged row names the row's start).
        scanner.index = saved.0
        if error.truncated || error.code == .raggedRow {
          (scanner.newlines, scanner.lineStart) = (saved.1, saved.2)
        }
        result = .failure(error)
        break
      }
      line += scanner.newlines
      scanner.newlines = 0
      count += 1
    }
    // After a truncated record the scanner is back at its start; after an error the reader
    // stops, and `line` is the failing record's, to which the error adds the scanner's count.
    position = scanner.index
    lineStart = scanner.lineStart
    self.line = line
    return result
  }

  /// The values of a row's cells, by the schema's slots. A cell its field's type does not
  /// hold is reported (and null until the schema grows).
  func csvValues(
    _ csv: CSVColumns, _ cells: [CSVCell], _ scanner: CSVScanner, _ targets: [CSVTarget],
    row: Range<Int>, line: Int
  ) -> [Value] {
    var values = [Value](repeating: .null, count: layout.width)
    for target in targets where target.column < cells.count && target.path[0] < values.count {
      let cell = cells[target.column]
      guard let value = csv.value(cell, scanner, as: target.type, column: target.column) else {
        reportGrowth(csv, target.names, cell, row: row, scanner, line: line)
        continue
      }
      if target.path.count == 1 {
        values[target.path[0]] = value
      } else {
        assign(&values, target.path[...], value, layout)
      }
    }
    return values
  }

  /// The values of a row read into the cells of `rows` (see ``JSONScanner/record(_:into:)``):
  /// an unquoted cell of a top-level field whose coded column has seen it spelled so takes
  /// that value's code, without being decoded, and so do the unquoted cells of a field nested
  /// by name whose columns are side by side (a ``CSVNest``, spelled by all of them); the
  /// others are read as ``csvValues`` reads them (those of a nested field whose columns are
  /// apart, with no spelling: cells here and there make its value).
  func csvCells(
    _ csv: CSVColumns, _ cells: [CSVCell], _ scanner: CSVScanner, _ targets: [CSVTarget],
    _ places: [CSVPlace], _ nests: [CSVNest], row: Range<Int>, line: Int,
    into rows: inout ColumnRows
  ) {
    var nested: [Value] = []
    let width = layout.width
    // (Through the targets' places, of plain numbers: a loop over the targets copied each,
    // retaining its arrays, for every cell: half of a CSV load's time. A target is read only
    // for a cell decoded.)
    for index in places.indices {
      let place = places[index]
      guard place.column < cells.count, place.slot >= 0, place.slot < width else { continue }
      let cell = cells[place.column]
      let spelled = place.flat && !cell.quoted && !cell.escaped && cell.start < cell.end
      if spelled,
        rows.put(
          spelled: .bytes(
            UnsafeRawBufferPointer(
              UnsafeBufferPointer(rebasing: scanner.bytes[cell.start..<cell.end]))),
          slot: place.slot) != nil
      {
        continue
      }
      // (`places` is `targets` mapped: the same indices.)
      guard let value = csv.value(cell, scanner, as: targets[index].type, column: place.column)
      else {
        reportGrowth(csv, targets[index].names, cell, row: row, scanner, line: line)
        continue
      }
      if place.flat {
        // A number straight into a column of numbers (see ``ColumnRows/put(number:slot:)``).
        switch value {
        case .int, .double: if rows.put(number: value, slot: place.slot) { continue }
        default: break
        }
        rows.set(place.slot, value, spelled: spelled ? cell.start..<cell.end : 0..<0)
      } else {
        if nested.isEmpty { nested = [Value](repeating: .null, count: width) }
        assign(&nested, targets[index].path[...], value, layout)
      }
    }
    for slot in nested.indices where !nested[slot].isNull {
      rows.set(slot, nested[slot], spelled: 0..<0)
    }
    for nest in nests where nest.columns.upperBound < cells.count && nest.slot < width {
      let (first, last) = (cells[nest.columns.lowerBound], cells[nest.columns.upperBound])
      var plain = first.start < last.end
      for column in nest.columns where cells[column].quoted || cells[column].escaped {
        plain = false
      }
      let spelling = first.start..<last.end
      if plain,
        rows.put(
          spelled: .bytes(
            UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: scanner.bytes[spelling]))),
          slot: nest.slot) != nil
      {
        continue
      }
      var values = [Value](repeating: .null, count: nest.slot + 1)
      for index in nest.targets {
        let target = targets[index]
        guard
          let value = csv.value(
            cells[target.column], scanner, as: target.type, column: target.column)
        else {
          reportGrowth(csv, target.names, cells[target.column], row: row, scanner, line: line)
          continue
        }
        assign(&values, target.path[...], value, layout)
      }
      if !values[nest.slot].isNull {
        rows.set(nest.slot, values[nest.slot], spelled: plain ? spelling : 0..<0)
      }
    }
  }

  /// After a row that needs the schema to grow: notes what the rows after it need too (see
  /// ``lookAhead(_:)``).
  func csvLookAhead(
    _ scanner: CSVScanner, _ csv: CSVColumns, _ targets: [CSVTarget], line: Int
  ) {
    var (scanner, line, cells) = (scanner, line, [CSVCell]())
    noting {
      for _ in 0..<growthLookahead {
        line += scanner.newlines
        scanner.newlines = 0
        guard let text = try? scanner.record(into: &cells), cells.count == csv.header.count
        else { return }
        _ = csvValues(csv, cells, scanner, targets, row: text, line: line)
      }
    }
  }

  /// Reports the cell of column `target` as one its field's type does not hold, at its own
  /// line and column: the row may span lines (quoted line breaks), and the scanner has
  /// already passed the row's end.
  func reportGrowth(
    _ csv: CSVColumns, _ names: [String], _ cell: CSVCell, row: Range<Int>,
    _ scanner: CSVScanner, line: Int
  ) {
    var found = TypeTally()
    csv.tally(cell, scanner, into: &found)
    let bytes = scanner.bytes
    var cellLineStart = row.lowerBound
    var linesAfter = 0
    for i in row.lowerBound..<scanner.index where bytes[i] == 0x0A {
      if i < cell.start { cellLineStart = i + 1 } else { linesAfter += 1 }
    }
    growth.line = line
    growth.report(
      names, found: found.type, offset: cell.start, newlines: scanner.newlines - linesAfter,
      lineStart: cellLineStart)
  }

  func fieldType(_ path: [Int]) -> (ValueType, [String])? {
    var schema = schema
    var names: [String] = []
    for (i, slot) in path.enumerated() {
      guard slot < schema.fields.count else { return nil }
      let field = schema.fields[slot]
      names.append(field.name)
      if i == path.count - 1 { return (field.type, names) }
      guard case .record(let inner) = field.type else { return nil }
      schema = inner
    }
    return nil
  }

  func assign(
    _ values: inout [Value], _ path: ArraySlice<Int>, _ value: Value, _ layout: RecordLayout
  ) {
    guard let slot = path.first, slot < values.count else { return }
    let rest = path.dropFirst()
    if rest.isEmpty {
      values[slot] = value
      return
    }
    guard let nested = layout.nested[slot] else { return }
    var inner: [Value]
    if case .record(let existing) = values[slot] {
      inner = existing
    } else {
      inner = [Value](repeating: .null, count: nested.types.count)
    }
    values[slot] = .null
    assign(&inner, rest, value, nested)
    values[slot] = .record(inner)
  }
}
