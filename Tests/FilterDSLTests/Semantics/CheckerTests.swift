import Testing

@testable import FilterDSL

/// The checker: `(id, filter, expected diagnostics as "CODE message")`.
@Suite struct CheckerTests {
  static func check(
    _ text: String, parameters: [String: ValueType] = ["budget": .int, "colors": .list(.string)]
  ) -> [String] {
    let result = Parser.parseFilter(text)
    guard let expr = result.value else {
      return result.diagnostics.map { "parse error: \($0.message)" }
    }
    return Checker.check(expr, schema: PhoneSchema.schema, parameters: parameters).diagnostics
      .map { "\($0.code) \($0.message)" + ($0.help.map { " | \($0)" } ?? "") }
  }

  @Test(arguments: [
    #"color in (Starlight, "Space Black") and diskSpace >= 256"#,
    "price <= $budget * 2 and screenSize > 6",
    "price > 6.5 and screenSize == 6",
    "released >= 2022-09-16 and updated > 2022-09-16T10:00:00Z - 7d",
    "released > today() - 7d and updated < now()",
    "updated - released > 30d",
    "warranty >= 1w and warranty < 2 * 365d",
    "model contains[c] pro and model like 'iPhone*' and model matches \"i.*\"",
    "any tags == 5G and all scores >= 3 and none tags in (a, b)",
    "tags contains 5G",
    "camera.megapixels > 12 and camera.zoom is not null and exists camera.zoom",
    "inStock and not inStock == false",
    "lower(model) == \"x\" and len(tags) > 2 and abs(price - 1000) < 100",
    "round(screenSize) == 6 and max(price, 100) > min(memory, diskSpace)",
    "color in $colors and price in 100...1000 and released in 2022-01-01..<2023-01-01",
    "price between 1 and 2.5 and `screen size` > 6",
    "discontinued is null or date(\"2024-01-01\") > `discontinued`",
    "model + \" \" + color == \"iPhone Gold\"",
    "notes is null and not exists notes and $budget > 5 and today() > 2024-01-01",
  ])
  func validFilters(text: String) {
    #expect(CheckerTests.check(text) == [], "\(text)")
  }

  /// Text compared with a number or a date: the help gives the fix that answers what was
  /// asked. Quoting the number compares text ("9" > "100"): it is offered only for `==` and
  /// `!=` on text not known to hold numbers. (A `sqlite3 .import` table compared `Sales >
  /// "100"` as text, as the help said, and counted 9,738 rows where 3,765 sell over 100.)
  @Test(arguments: [
    (
      "num-1", "Sales > 100",
      "Sales is text: to compare it as a number, convert it: double(Sales) > 100"
    ),
    (
      "num-2", "Sales == 100",
      "Sales is text: to compare it as a number, convert it: double(Sales) == 100"
    ),
    (
      "num-2b", "Placed == 100",
      #"Placed is text: to compare it as a number, convert it: double(Placed) == 100; to compare text, quote the value: "100""#
    ),
    (
      "num-3", "Quantity >= 3",
      "Quantity is text: to compare it as a number, convert it: int(Quantity) >= 3"
    ),
    (
      "num-4", "Quantity != 3",
      "Quantity is text: to compare it as a number, convert it: int(Quantity) != 3"
    ),
    (
      "num-5", "Quantity < 2.5",
      "Quantity is text: to compare it as a number, convert it: double(Quantity) < 2.5"
    ),
    (
      "num-6", "Delay > 15",
      #"Delay holds numbers and "-", which made it text: read it as null when loading (--null "-", or load ... null "-") and compare numbers, or convert the text: int(Delay) > 15"#
    ),
    (
      "num-7", "Detail.Discount <= 0.2",
      #"Detail.Discount holds numbers and "n/a", "none", which made it text: read them as null when loading (--null "n/a" --null "none", or load ... null "n/a", "none") and compare numbers, or convert the text: double(Detail.Discount) <= 0.2"#
    ),
    (
      "num-8", "Placed >= 2020-01-01",
      #"Placed is text: convert it to compare as dates: date(Placed) >= 2020-01-01 (or date(Placed, "%d/%m/%Y") for another format)"#
    ),
    (
      "num-9", "Placed < 2020-01-01T10:00:00Z",
      #"Placed is text: convert it to compare as date-times: datetime(Placed) < 2020-01-01T10:00:00Z (or datetime(Placed, "%d/%m/%Y %H:%M") for another format)"#
    ),
  ])
  func textComparedWithANumberOrADate(id: String, text: String, help: String) {
    let schema = Schema([
      .init("Sales", .string, numericText: NumericText(integers: false)),
      .init("Quantity", .string, numericText: NumericText(integers: true)),
      .init("Delay", .string, numericText: NumericText(integers: true, others: ["-"])),
      .init(
        "Detail",
        .record(
          Schema([
            .init(
              "Discount", .string,
              numericText: NumericText(integers: false, others: ["n/a", "none"]))
          ]))),
      .init("Placed", .string),
    ])
    let expr = Parser.parseFilter(text).value
    let diagnostics = expr.map { Checker.check($0, schema: schema).diagnostics } ?? []
    #expect(diagnostics.map(\.help) == [help], "\(id)")
  }

  /// A negative `limit` or `offset` is an error where it is written (it printed nothing).
  @Test func negativeCountsAreErrors() {
    for text in ["price > 1 limit -1", "price > 1 offset -1", "true limit 5 offset -20"] {
      let query = Parser.parseQuery(text).value
      let diagnostics =
        query.map { Checker.check($0, schema: PhoneSchema.schema).diagnostics } ?? []
      #expect(
        diagnostics.map(\.message).first?.hasPrefix("limit and offset count records from 0")
          == true, "\(text)")
    }
    let fine = Parser.parseQuery("true limit 0 offset 0").value
    #expect(fine.map { Checker.check($0, schema: PhoneSchema.schema).diagnostics.isEmpty } == true)
  }

  /// Help shows the data's own fields, not the phone catalog's.
  @Test func helpUsesTheDatasOwnFields() {
    let flights = Schema([
      .init("carrier", .string, knownValues: ["AA", "UA"]), .init("dep delay", .int),
    ])
    func help(_ text: String, _ schema: Schema) -> [String?] {
      let expr = Parser.parseFilter(text).value
      return expr.map { Checker.check($0, schema: schema).diagnostics.map(\.help) } ?? []
    }
    #expect(help(#""a" == 1"#, flights) == ["put a field on the left, as in `dep delay` > 100"])
    #expect(help("2 > 1", flights) == ["put a field on one side, as in `dep delay` > 100"])
    #expect(
      help("2 > 1", Schema([.init("carrier", .string, knownValues: ["AA"])]))
        == [#"put a field on one side, as in carrier == "AA""#])
    #expect(help("any carrier == AA", flights) == [#"compare the value itself: carrier == "x""#])
  }

  /// A field of mixed values takes the tests that look at each value (`is empty`, `==`,
  /// text tests, `typeof`, `len`), with no warning; what needs one kind (arithmetic, order,
  /// `min`) is an error.
  @Test func aFieldOfMixedValuesTakesTestsOfEachValue() {
    let schema = Schema([.init("opt", .any, optional: true), .init("name", .string)])
    func diagnostics(_ text: String) -> [Diagnostic] {
      Parser.parseFilter(text).value.map { Checker.check($0, schema: schema).diagnostics } ?? []
    }
    for text in [
      "opt is empty", "opt is not empty", "opt == 3", #"opt != "a""#, "opt ==[c] a",
      "opt contains x", "typeof(opt) == list", "len(opt) > 2", "opt in (1, a)", "opt is null",
      "exists opt", "opt > 2",
    ] {
      #expect(diagnostics(text).isEmpty, "\(text): \(diagnostics(text))")
    }
    for text in ["opt + 1 > 2", "lower(opt) == a", "any opt == 1"] {
      #expect(diagnostics(text).contains { $0.severity == .error }, "\(text)")
    }
  }

  /// A JSON document read whole is one record; a filter on the fields of the records in one of
  /// its lists is pointed to --root (or `any`), however deep the list lies.
  @Test func fieldsOfTheRecordsInAListPointToRoot() {
    let tweet = Schema([.init("text", .string), .init("like count", .int)])
    let document = Schema([
      .init("meta", .record(Schema([.init("n", .int)]))), .init("tweets", .list(.record(tweet))),
      .init(
        "api",
        .record(Schema([.init("data", .record(Schema([.init("items", .list(.record(tweet)))])))]))),
    ])
    func help(_ text: String, _ schema: Schema) -> [String?] {
      let expr = Parser.parseFilter(text).value
      return expr.map { Checker.check($0, schema: schema).diagnostics.map(\.help) } ?? []
    }
    #expect(
      help("text == hi", document) == [
        "'text' is a field of the records in the list 'tweets': to filter those records, read "
          + "them with --root tweets; to test this record's list, any tweets.text"
      ])
    #expect(help("`like count` > 2", document).first??.contains("any tweets.`like count`") == true)
    let nested = Schema(Array(document.fields.dropFirst(2)))
    #expect(help("text == hi", nested).first??.contains("--root api.data.items;") == true)
    // Not when the name is nowhere, nor when a top-level field is close to it.
    #expect(help("txt == hi", nested) == ["the fields are 'api'"])
    #expect(help("met == 1", document) == ["did you mean 'meta'?"])
  }

  @Test(arguments: [
    ("sem-1", "colr == Gold", ["FLT301 unknown field 'colr' | did you mean 'color'?"]),
    (
      "sem-2", "costPrice > 3",
      [
        "FLT301 unknown field 'costPrice' | the fields are 'model', 'price', 'screenSize', 'processor', 'memory', 'diskSpace', 'color', 'released', 'updated', 'warranty', 'inStock', 'tags', ... (19 in all)"
      ]
    ),
    (
      "sem-3", "camera.megapixel > 3",
      ["FLT301 unknown field 'megapixel' of 'camera' | did you mean 'megapixels'?"]
    ),
    ("sem-4", "price.amount > 3", ["FLT314 'price' has no fields: it is an integer"]),
    ("sem-5", "$budgt > 3", ["FLT302 unknown parameter '$budgt' | did you mean '$budget'?"]),
    (
      "sem-5b", "price > $limit",
      [
        "FLT302 unknown parameter '$limit' | give it a value: -p limit=VALUE on the command line, let limit = ... in a script"
      ]
    ),
    (
      "sem-6", "lowr(model) == x",
      [
        "FLT303 unknown function 'lowr' | did you mean 'lower'? (the functions nearest to it are lower, floor, hour, now, bool, len, year, abs, at, ceil, ... (43 in all))"
      ]
    ),
    ("sem-7", "lower(model, color) == x", ["FLT304 lower takes 1 argument, not 2"]),
    ("sem-8", "lower(price) == x", ["FLT304 lower takes text, not an integer"]),
    (
      "sem-9", "color == 3",
      [
        #"FLT305 cannot compare 'color' (text) with 3 (an integer) | color is text: to compare it as a number, convert it: double(color) == 3; to compare text, quote the value: "3""#
      ]
    ),
    (
      "sem-10", "price == \"1299\"",
      ["FLT305 cannot compare 'price' (an integer) with '1299' | remove the quotes: 1299"]
    ),
    (
      "sem-11", "diskSpace == 256GB",
      [
        "FLT305 cannot compare 'diskSpace' (an integer) with '256GB' | write the number without a unit: 256"
      ]
    ),
    (
      "sem-12", "released > \"2022-01-01\"",
      [
        "FLT305 cannot compare 'released' (a date) with '2022-01-01' | write dates without quotes: 2022-09-16"
      ]
    ),
    (
      "sem-13", "price contains 3",
      [
        "FLT306 'contains' works on text, and 'price' (an integer) is not text | compare numbers with ==, <, > or between"
      ]
    ),
    ("sem-14", "model * 2 > 3", ["FLT306 cannot apply '*' to 'model' (text) and 2 (an integer)"]),
    (
      "sem-15", "any price == 3",
      [
        "FLT307 'any' needs a list, and 'price' (an integer) is not one | compare the value itself: price > 3"
      ]
    ),
    (
      "sem-16", "color in (Gold, null)",
      [
        "FLT308 null in an 'in' list never matches | test for null separately: x is null or x in (...)"
      ]
    ),
    (
      "sem-17", "color in ()",
      ["FLT309 'in ()' matches nothing | put the values to match in the parentheses"]
    ),
    (
      "sem-18", "price",
      ["FLT310 'price' (an integer) is not true or false | compare it: price > 0"]
    ),
    (
      "sem-19", "inStock and model",
      [#"FLT310 'model' (text) is not true or false | compare it: model == "...""#]
    ),
    (
      "sem-20", "price ==[c] 3",
      ["FLT311 [c] only applies to text, and 'price' (an integer) is not text | remove [c]"]
    ),
    (
      "sem-21", "color == Midnigth",
      [#"FLT312 no record has color 'Midnigth' | did you mean "Midnight"?"#]
    ),
    ("sem-22", "color ==[c] midnight", []),
    ("sem-23", "color in (Gold, Purple)", ["FLT312 no record has color 'Purple'"]),
    (
      "sem-24", "price == null",
      [
        "FLT313 a comparison with null is never true | test for null with 'is null' or 'is not null'"
      ]
    ),
    (
      "sem-25", "colr == Gold and pric > 3",
      [
        "FLT301 unknown field 'colr' | did you mean 'color'?",
        "FLT301 unknown field 'pric' | did you mean 'price'?",
      ]
    ),
    ("sem-26", "colr + 1 > 2", ["FLT301 unknown field 'colr' | did you mean 'color'?"]),
    (
      "sem-27", "tags contains 3",
      ["FLT305 cannot compare the elements of 'tags' (a list of text) with 3 (an integer)"]
    ),
    (
      "sem-28", "color in $budget",
      [
        "FLT307 'in' needs a list, and an integer is not one | write the values in parentheses: x in (a, b), or a range: x in 1...5"
      ]
    ),
    (
      "sem-28b", "color in tags",
      [
        "FLT307 'in' needs a list, and 'tags' is not one | on the right of an operator a word is text; for the list field, write it in backticks: x in `tags` (or tags contains x)"
      ]
    ),
    (
      "sem-28c", "len(tags + scores) > 3",
      ["FLT306 cannot apply '+' to 'tags' (a list of text) and 'scores' (a list of integers)"]
    ),
    (
      "sem-29", "released + released > 3",
      ["FLT306 cannot apply '+' to 'released' (a date) and 'released' (a date)"]
    ),
    (
      "sem-30", "price in 1...\"x\"",
      ["FLT305 cannot compare 'price' (an integer) with 'x' | compare with a number"]
    ),
    (
      "sem-31", "date(\"2024-01-01\") > discontinued",
      [
        "FLT305 cannot compare a date with 'discontinued' | on the right of an operator a word is text; to name the field, write `discontinued`"
      ]
    ),
    (
      "sem-31b", "price > memory % 100",
      [
        "FLT306 cannot apply '%' to 'memory' and 100 (an integer) | on the right of an operator a word is text; to name the field, write `memory`"
      ]
    ),
    (
      "sem-31c", #"model matches "(?i)iphone""#,
      [
        #"FLT315 invalid regular expression: only (?:...) groups are supported; lookaround and named groups are not (at character 1 of the pattern) | to ignore case, write matches[c] and leave out (?i): name matches[c] "iphone""#
      ]
    ),
    // Case differences rank first, for fields and for values.
    ("sem-32", "Price > 1", ["FLT301 unknown field 'Price' | did you mean 'price'?"]),
    ("sem-33", "color == gold", [#"FLT312 no record has color 'gold' | did you mean "Gold"?"#]),
    // Help never leads to a comparison of two constants.
    (
      "sem-34", #""Price" > 1"#,
      [
        "FLT305 cannot compare 'Price' with 1 (an integer) | to read the field 'price', write its name without quotes: price"
      ]
    ),
    (
      "sem-35", #""Price" > "1""#,
      [
        "FLT317 this comparison reads no field, so it is the same for every record | to read the field 'price', write its name without quotes: price"
      ]
    ),
    (
      "sem-36", "1 + 1 == 2",
      [
        "FLT317 this comparison reads no field, so it is the same for every record | put a field on one side, as in price > 100"
      ]
    ),
    (
      "sem-37", #"model like "%Pro%" and model like "*10%""#,
      [#"FLT318 'like' patterns use * and ?, not SQL's % and _ | write the pattern as "*Pro*""#]
    ),
    // A field with no value in any record compares with anything and matches nothing.
    (
      "sem-38", "notes > 5 and any empties == 7",
      [
        "FLT316 'notes' has no value in any record, so this is never true | test it with 'is null' or 'exists', or check the field's name",
        "FLT316 'empties' has no value in any record, so this is never true | test it with 'is null' or 'exists', or check the field's name",
      ]
    ),
  ])
  func errors(id: String, text: String, expected: [String]) {
    #expect(CheckerTests.check(text) == expected, "\(id)")
  }

  @Test func foldingForModifiers() {
    #expect(
      TextFolding.fold("Straße", .caseInsensitive) == TextFolding.fold("STRASSE", .caseInsensitive))
    #expect(TextFolding.fold("Crème Brûlée", .diacriticInsensitive) == "Creme Brulee")
    #expect(TextFolding.fold("ÉCOLE", [.caseInsensitive, .diacriticInsensitive]) == "ecole")
    #expect(TextFolding.fold("e\u{301}", .diacriticInsensitive) == "e")
    #expect(TextFolding.fold("Łódź", .diacriticInsensitive) == "Lodz")
    #expect(TextFolding.fold("Ελλάδα", [.caseInsensitive, .diacriticInsensitive]) == "ελλαδα")
  }

  /// Names and values from data are shortened and escaped in messages: a CSV read from
  /// `/dev/zero` has one field named by 30 MB of NUL bytes, which the help once printed whole.
  @Test func namesFromDataAreShortenedAndEscaped() {
    let huge = String(repeating: "\u{0}", count: 100_000)
    let schema = Schema([.init(huge, .int), .init("price", .int)])
    let expr = Parser.parseFilter(SourceText("prize > 1")).value
    let diagnostics = expr.map { Checker.check($0, schema: schema).diagnostics } ?? []
    let help = diagnostics.first?.help ?? ""
    #expect(help.contains("did you mean 'price'?"))
    let other =
      expr.map {
        Checker.check($0, schema: Schema([.init(huge, .int)])).diagnostics
      } ?? []
    let list = other.first?.help ?? ""
    #expect(list.count < 400 && list.contains("\\u{0}") && !list.contains("\u{0}"))
  }
}
