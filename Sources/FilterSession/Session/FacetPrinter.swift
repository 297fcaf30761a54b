import FilterDSL
import FilterData

/// Prints facet counts in the session's format: a table per field for people; one row per
/// field and value (`field,value,count`) for programs.
struct FacetPrinter {
  let settings: Settings
  let styled: Bool

  func print(_ result: FacetCounts, to out: OutputSink) {
    switch settings.format {
    case .table, .records:
      for (i, facet) in result.facets.enumerated() {
        if i > 0 { out.write("\n") }
        out.write(table(facet))
      }
    case .csv, .tsv:
      let separator: UInt8 = settings.format == .tsv ? 0x09 : 0x2C
      out.write(RecordWriter.csvRow(["field", "value", "count"], separator: separator))
      for (facet, count) in rows(result) {
        out.write(
          RecordWriter.csvRow(
            [facet.field.dotted, ValueText.plain(count.value), String(count.count)],
            separator: separator))
      }
    case .values:
      for (facet, count) in rows(result) {
        out.write(
          [facet.field.dotted, ValueText.plain(count.value), String(count.count)]
            .map(RecordWriter.plainValue).joined(separator: "\t") + "\n")
      }
    case .jsonl:
      for (facet, count) in rows(result) { out.write(json(facet, count) + "\n") }
    case .json:
      let objects = rows(result).map { json($0.0, $0.1) }
      out.write(objects.isEmpty ? "[]\n" : "[\n" + objects.joined(separator: ",\n") + "\n]\n")
    }
  }

  /// Each field's counts, cut to the row limit.
  private func rows(_ result: FacetCounts)
    -> [(FacetCounts.Facet, FacetCounts.Count)]
  {
    result.facets.flatMap { facet in shown(facet).map { (facet, $0) } }
  }

  private func shown(_ facet: FacetCounts.Facet) -> ArraySlice<
    FacetCounts.Count
  > {
    facet.counts.prefix(settings.limit ?? facet.counts.count)
  }

  private func table(_ facet: FacetCounts.Facet) -> String {
    var table = TableLayout(headers: [facet.field.dotted, "count"], maxCellWidth: settings.width)
    table.styled = styled
    table.rows = shown(facet).map { count in
      [
        TableLayout.Cell(
          count.value.isNull ? "null" : ValueText.plain(count.value),
          isNumber: ValueText.isNumber(count.value), maxWidth: settings.width),
        TableLayout.Cell(String(count.count), isNumber: true),
      ]
    }
    let values = facet.counts.count
    let shownCount = table.rows.count
    let noun = values == 1 ? "value" : "values"
    let footer = shownCount < values ? "\(shownCount) of \(values) \(noun)" : "\(values) \(noun)"
    return table.text(footer: footer)
  }

  private func json(
    _ facet: FacetCounts.Facet, _ count: FacetCounts.Count
  ) -> String {
    "{\"field\":\(ValueText.json(.string(facet.field.dotted))),\"value\":\(ValueText.json(count.value)),\"count\":\(count.count)}"
  }
}
