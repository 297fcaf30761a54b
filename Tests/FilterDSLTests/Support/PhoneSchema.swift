@testable import FilterDSL

/// The schema of the phone catalog used across the semantic tests.
enum PhoneSchema {
  static let camera = Schema([
    .init("megapixels", .int), .init("zoom", .double, optional: true),
  ])

  static let schema = Schema([
    .init("model", .string),
    .init("price", .int),
    .init("screenSize", .double),
    .init("processor", .string),
    .init("memory", .int),
    .init("diskSpace", .int),
    .init(
      "color", .string,
      knownValues: ["Midnight", "Starlight", "Space Black", "Gold", "Silver", "Deep Purple"]),
    .init("released", .date),
    .init("updated", .dateTime, optional: true),
    .init("warranty", .duration),
    .init("inStock", .bool),
    .init("tags", .list(.string)),
    .init("scores", .list(.int)),
    .init("camera", .record(camera), optional: true),
    .init("discontinued", .date, optional: true),
    .init("screen size", .double),
    // Null in every record, and lists empty in every record: no evidence of a type.
    .init("notes", .null, optional: true),
    .init("empties", .list(.null)),
    // A list of records: accessories, each with a name, a price and its own tags.
    .init(
      "accessories",
      .list(
        .record(
          Schema([.init("name", .string), .init("price", .int), .init("tags", .list(.string))])))),
  ])
}
