import FilterDSL

/// The tally of the records of a sample (see ``DataReader/infer(records:bytes:)``), which the
/// reader's parse adds to block by block: a reference to the ``RecordTally`` value, tallied
/// into in place, a record at a time.
final class SampleTally {
  private(set) var record: RecordTally

  init(shortcuts: Bool = true) { record = RecordTally(shortcuts: shortcuts) }

  /// How many records were tallied.
  var records: Int { record.records }

  /// Tallies into the record's tally.
  func add<E: Error>(_ body: (inout RecordTally) throws(E) -> Void) throws(E) {
    try body(&record)
  }

  /// The inferred schema (see ``RecordTally/schema(complete:)``).
  func schema(complete: Bool) -> Schema { record.schema(complete: complete) }
}
