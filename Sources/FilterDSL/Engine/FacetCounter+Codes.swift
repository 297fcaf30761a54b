import Dispatch

/// Facets of coded fields in one pass: each field's own condition reads only that field, so
/// over a coded column it is a function of the code, evaluated once per distinct value (a
/// table of truths by code); then one loop over the candidates' codes finds, per record, the
/// own conditions it fails and tallies the codes of the fields it counts for. No selection
/// of positions, no per-field pass over the records.
extension FacetCounter {
  /// Facets of coded fields counted segment by segment: the own conditions' truths by code
  /// (evaluated on the first segment), and the tally so far.
  struct CodeCounting {
    let columns: [CodedColumn<Root>]
    let facets: FacetCounter
    private var truths: [[Bool]]? = nil
    private var tally: CodeTally

    init(columns: [CodedColumn<Root>], facets: FacetCounter) {
      (self.columns, self.facets) = (columns, facets)
      tally = CodeTally(fields: columns.map(\.values.count))
    }

    /// Tallies `candidates` (records the shared part kept); nil, having counted nothing,
    /// when an own condition faulted on a value (the faults must then be counted per
    /// record, which the general path does).
    mutating func add(_ candidates: [Root], _ faults: inout FaultCounts, until stop: () -> Bool)
      -> Void?
    {
      if truths == nil {
        guard let found = facets.truths(columns, &faults) else { return nil }
        truths = found
      }
      facets.tallyCodes(columns, truths ?? [], candidates, into: &tally, until: stop)
      return ()
    }

    /// The facets counted, with `faults`.
    func result(_ faults: FaultCounts) -> FacetTally {
      let (counts, failingOnly, passing) = (tally.counts, tally.failingOnly, tally.passing)
      let found = columns.indices.map { field in
        var tally = ValueCounts()
        for (code, count) in counts[field].enumerated() where count > 0 {
          tally.addRecords(holding: columns[field].values[code], times: count)
        }
        return tally
      }
      return FacetTally(
        counts: found, records: failingOnly.map { passing + $0 }, matches: passing,
        faults: faults)
    }
  }

  /// For each field, whether its own condition holds for each code; nil when one faulted on
  /// a value.
  func truths(_ columns: [CodedColumn<Root>], _ faults: inout FaultCounts) -> [[Bool]]? {
    var truths: [[Bool]] = []
    for (field, column) in columns.enumerated() {
      guard let filter = own[field] else {
        truths.append([Bool](repeating: true, count: column.values.count))
        continue
      }
      var own = FaultCounts()
      let passing = filter.selection(column.firstRecords, until: { false }, faults: &own)
      guard own.isEmpty else { return nil }
      faults.merge(own)
      var truth = [Bool](repeating: false, count: column.values.count)
      for code in passing where code < truth.count { truth[code] = true }
      truths.append(truth)
    }
    return truths
  }

  /// Tallies the codes of `candidates` into `tally`, given the own conditions' truths.
  func tallyCodes(
    _ columns: [CodedColumn<Root>], _ truths: [[Bool]], _ candidates: [Root],
    into tally: inout CodeTally, until stop: () -> Bool
  ) {
    let sizes = columns.map(\.values.count)
    let chunk = CompiledFilter<Root>.chunk
    if candidates.count >= 2 * chunk {
      // In chunks on every core (each tally its own, then added up), in rounds, asking
      // `stop` between them.
      var start = 0
      while start < candidates.count, !stop() {
        let roundEnd = Swift.min(start + chunk * 8, candidates.count)
        let count = (roundEnd - start + chunk - 1) / chunk
        var parts = [CodeTally](repeating: CodeTally(fields: sizes), count: count)
        let roundStart = start
        parts.withUnsafeMutableBufferPointer { parts in
          let slots = TallySlots(parts: parts, candidates: candidates, columns: columns)
          DispatchQueue.concurrentPerform(iterations: count) { part in
            let from = roundStart + part * chunk
            let records = slots.candidates[from..<Swift.min(from + chunk, roundEnd)]
            slots.parts[part].add(slots.columns.map { $0.codes(records) }, truths)
          }
        }
        for part in parts { tally.merge(part) }
        start = roundEnd
      }
    } else {
      for start in stride(from: 0, to: candidates.count, by: 1024) {
        if start > 0, stop() { break }
        let records = candidates[start..<Swift.min(start + 1024, candidates.count)]
        tally.add(columns.map { $0.codes(records) }, truths)
      }
    }
  }
}

/// What one pass over candidates' codes counts: per field, how many records of each code count
/// for it (those passing every own condition but perhaps that field's); how many records fail
/// only that field's own condition; how many pass them all.
struct CodeTally {
  var counts: [[Int]]
  var failingOnly: [Int]
  var passing = 0

  init(fields sizes: [Int]) {
    counts = sizes.map { [Int](repeating: 0, count: $0) }
    failingOnly = [Int](repeating: 0, count: sizes.count)
  }

  /// Counts candidates, given each field's codes (of each candidate) and own condition's
  /// truth by code. A record counts for a field when it passes every own condition but
  /// perhaps that field's: with the fields it fails as bits of a mask, that is "the mask
  /// without the field's bit is empty", counted without a branch (which records fail what
  /// is data: branches on it are mispredicted).
  mutating func add(_ codes: [[UInt32]], _ truths: [[Bool]]) {
    let fieldCount = codes.count
    let count = codes.first?.count ?? 0
    guard fieldCount <= 64, codes.allSatisfy({ $0.count == count }),
      truths.count == fieldCount, counts.count == fieldCount
    else { return addEach(codes, truths) }
    // A code past the truths (none should be) fails, and is counted nowhere.
    let passes = truths.map { $0.map { UInt64($0 ? 0 : 1) } + [1] }
    // Field by field, each a plain loop over buffers: the fields each record fails, then
    // the records each field counts.
    var failed = [UInt64](repeating: 0, count: count)
    failed.withUnsafeMutableBufferPointer { failed in
      for field in 0..<fieldCount {
        codes[field].withUnsafeBufferPointer { codes in
          passes[field].withUnsafeBufferPointer { fails in
            let last = fails.count - 1
            for index in 0..<count {
              failed[index] |= fails[Swift.min(Int(codes[index]), last)] << UInt64(field)
            }
          }
        }
      }
      for field in 0..<fieldCount {
        let bit: UInt64 = 1 << UInt64(field)
        var only = 0
        codes[field].withUnsafeBufferPointer { codes in
          counts[field].withUnsafeMutableBufferPointer { counts in
            for index in 0..<count {
              let code = Int(codes[index])
              let rest = failed[index] & ~bit
              if code < counts.count { counts[code] &+= rest == 0 ? 1 : 0 }
              only &+= failed[index] == bit ? 1 : 0
            }
          }
        }
        failingOnly[field] &+= only
      }
      var all = 0
      for index in 0..<count { all &+= failed[index] == 0 ? 1 : 0 }
      passing &+= all
    }
  }

  /// ``add(_:_:)`` record by record, for more than 64 fields.
  private mutating func addEach(_ codes: [[UInt32]], _ truths: [[Bool]]) {
    let fieldCount = Swift.min(codes.count, truths.count, counts.count)
    let count = codes.map(\.count).min() ?? 0
    for index in 0..<count {
      var failed = 0
      var last = 0
      for field in 0..<fieldCount {
        let code = Int(codes[field][index])
        if code >= truths[field].count || !truths[field][code] {
          failed += 1
          last = field
        }
      }
      if failed == 0 {
        passing += 1
        for field in 0..<fieldCount {
          let code = Int(codes[field][index])
          if code < counts[field].count { counts[field][code] += 1 }
        }
      } else if failed == 1 {
        failingOnly[last] += 1
        let code = Int(codes[last][index])
        if code < counts[last].count { counts[last][code] += 1 }
      }
    }
  }

  /// Adds another tally of the same fields.
  mutating func merge(_ other: CodeTally) {
    passing += other.passing
    for field in counts.indices where field < other.counts.count {
      failingOnly[field] += other.failingOnly[field]
      for code in counts[field].indices where code < other.counts[field].count {
        counts[field][code] += other.counts[field][code]
      }
    }
  }
}

/// The tallies of a round's chunks, one slot per chunk, each written only by the thread
/// counting that chunk; the candidates and their columns, read only.
private struct TallySlots<Root>: @unchecked Sendable {
  let parts: UnsafeMutableBufferPointer<CodeTally>
  let candidates: [Root]
  let columns: [CodedColumn<Root>]
}
