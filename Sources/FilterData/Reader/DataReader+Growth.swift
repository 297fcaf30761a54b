import FilterDSL

/// Growing the schema while reading: the records after one that needs it looked at too, and
/// the fields widened or added at once for all of them.
extension DataReader {
  /// How many records after one that needs the schema to grow are looked at too: as many as
  /// the schema has fields (a growth costs about that much), and at least 1,024.
  var growthLookahead: Int { Swift.max(1024, schema.fields.count) }

  /// Runs `look` (reading records ahead) keeping what it finds the schema needs, but not the
  /// values it counts as failures to convert (those records are counted when they are read).
  func noting(_ look: () -> Void) {
    let saved = (framing, growth.failures, growth.unreported, growth.line)
    look()
    (framing, growth.failures, growth.unreported, growth.line) = saved
  }

  /// Widens the schema by the values of the record that did not fit it (the reader stopped
  /// before that record, and reads it again under the grown schema).
  func grow() {
    var grown = grownSchema ?? schema
    // New top-level fields are gathered and added at once: a schema is rebuilt per change
    // otherwise, and records that each bring new keys make thousands of changes.
    var (added, addedSlots) = ([Schema.Field](), [String: Int]())
    for value in growth.pending {
      let before: ValueType?
      let after: ValueType?
      if value.path.count == 1, grown.field(named: value.path[0]) == nil {
        let name = value.path[0]
        if let slot = addedSlots[name] {
          before = added[slot].type
          added[slot] = added[slot].grown(
            to: added[slot].type.widened(with: value.found), with: value.found)
        } else {
          before = nil
          addedSlots[name] = added.count
          added.append(Schema.Field(name, value.found, optional: true))
        }
        after = addedSlots[name].map { added[$0].type }
      } else {
        before = grown.type(at: value.path[...])
        grown = grown.grown(at: value.path[...], found: value.found)
        after = grown.type(at: value.path[...])
      }
      guard let after, after != before else { continue }
      let field = value.path.joined(separator: ".")
      let problem = DataProblem(
        code: .unexpectedType,
        message: before.map {
          "'\(field)' holds \(value.found) here, after \($0.plural) in the records before"
        } ?? "'\(field)' first appears here",
        label: before == nil ? "a new field" : "read as \(after.plural) from here on",
        offset: value.offset)
      let place = error(
        problem, newlines: value.line - line, lineStart: value.lineStart, severity: .warning)
      changes.append(SchemaChange(path: value.path, before: before, after: after, place: place))
    }
    growth.pending.removeAll()
    grownSchema = added.isEmpty ? grown : Schema(grown.fields + added)
  }
}
