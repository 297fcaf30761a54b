// A phone catalog filtered by what its users type: fields of every kind (text, numbers, a
// date, a list, a nested record), a filter compiled once, a query that sorts, and an error a
// user's mistake gets. Imports FilterDSL only (no Foundation).
import FilterDSL

struct Camera { var megapixels: Int; var zoom: Int? }

struct Phone {
  var model: String
  var price: Int
  var screenSize: Double
  var color: String
  var released: CalendarDate
  var tags: [String]
  var camera: Camera
}

/// The fields a filter may use (an allow-list), each with how to read it.
let phones = RecordType<Phone>([
  .string("model") { $0.model },
  .int("price") { $0.price },
  .double("screenSize") { $0.screenSize },
  .string("color", knownValues: ["Midnight", "Starlight", "Space Black"]) { $0.color },
  .date("released") { $0.released },
  // A list: `tags contains 5G`, `any tags == eSIM`, `len(tags) >= 2`.
  .value("tags", .list(.string)) { .list($0.tags.map(Value.string)) },
  // A nested record: `camera.megapixels >= 48`, `camera.zoom is null`.
  .value(
    "camera",
    .record(Schema([.init("megapixels", .int), .init("zoom", .int, optional: true)]))
  ) { .record([.int(Int64($0.camera.megapixels)), $0.camera.zoom.map { .int(Int64($0)) } ?? .null]) },
])

func day(_ year: Int, _ month: Int, _ day: Int) -> CalendarDate {
  CalendarDate(year: year, month: month, day: day) ?? CalendarDate(daysSinceEpoch: 0)
}

let catalog = [
  Phone(
    model: "iPhone 14", price: 799, screenSize: 6.1, color: "Midnight",
    released: day(2022, 9, 16), tags: ["5G"], camera: Camera(megapixels: 12, zoom: nil)),
  Phone(
    model: "iPhone 14 Plus", price: 899, screenSize: 6.7, color: "Starlight",
    released: day(2022, 10, 7), tags: ["5G", "eSIM"], camera: Camera(megapixels: 12, zoom: nil)),
  Phone(
    model: "iPhone 14 Pro Max", price: 1299, screenSize: 6.7, color: "Space Black",
    released: day(2022, 9, 16), tags: ["5G", "eSIM"], camera: Camera(megapixels: 48, zoom: 3)),
]

do {
  let filter = try CompiledFilter(
    #"color in (Starlight, "Space Black") and tags contains eSIM and released >= 2022-09-01"#,
    for: phones)
  print(catalog.filter(filter.matches).map(\.model))
  print(filter.plan)

  let query = try CompiledQuery(
    "camera.megapixels >= 12 and price % 100 == 99 order by price desc limit 2", for: phones)
  print(query.run(catalog).records.map(\.model))

  // Numbers that call the C maths library (rounding, remainders): these are what failed to
  // link on Linux when the core did not link it itself.
  let rounded = try CompiledFilter("round(screenSize) == 7 and floor(screenSize) == 6", for: phones)
  print(catalog.filter(rounded.matches).map(\.model))
} catch {
  print("unexpected: \(error)")
}

// A user's mistake: a FilterError prints as text, with the line, a caret and the fix.
do {
  _ = try CompiledFilter("colr == Gold", for: phones)
} catch {
  print(error)
}
