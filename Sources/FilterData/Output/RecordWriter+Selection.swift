import FilterDSL

/// What `--select` may name.
extension RecordWriter {
  /// Throws unless `names` (`--select`) name fields the records of `source` have: top-level
  /// ones, columns of a CSV header, or dotted paths into nested records (resolved as filters
  /// resolve them; not through lists, which output cannot reach into). One rule for files
  /// and tables.
  public static func checkSelection(_ names: [String], of source: any RecordSource)
    throws(ScanError)
  {
    let schema = source.schema
    for name in names where source.header?.contains(name) != true {
      switch schema.resolve(FieldPath(name)) {
      case .success(let field) where !field.steps.contains(where: \.throughList):
        continue
      case .success:
        throw ScanError(
          message:
            "--select: '\(name)' goes through a list of records, and output shows whole fields; select its list instead"
        )
      case .failure(.unknown(let index, let fields)):
        let part = FieldPath(name).components[index].text
        let suggestion = Suggestion.closest(to: part, among: fields.names)
        let place =
          index == 0 ? "the data has" : "'\(FieldPath(name).components[index - 1].text)' has"
        let shown = fields.names.prefix(12).map { quoted($0) }.joined(separator: ", ")
        throw ScanError(
          message: "--select: \(place) no field \(quoted(part))"
            + (suggestion.map { "; did you mean \(quoted($0))?" }
              ?? "; its fields are \(shown)\(fields.names.count > 12 ? ", ..." : "")"))
      case .failure(.notARecord(let index, let field)):
        throw ScanError(
          message:
            "--select: '\(field.name)' is \(field.type.description), which has no field '\(FieldPath(name).components[index].text)'"
        )
      }
    }
  }
}
