import Testing

@testable import FilterDSL

/// The built-in functions, through the reference evaluator and the compiled engine, on the
/// record of ``ReferenceEvaluatorTests``: `(id, filter, expected truth, fault expected)`.
@Suite struct FunctionTests {
  @Test(arguments: [
    // Text. Positions count characters from 0; a negative start counts from the end.
    ("fn-1.1", #"substring(model, 0, 6) == "iPhone""#, Truth.true),
    ("fn-1.2", #"substring(model, 7) == "14 Pro""#, .true),
    ("fn-1.3", #"substring(model, -3) == "Pro""#, .true),
    ("fn-1.4", #"substring(model, 100) == "" and substring(model, -100, 2) == "iP""#, .true),
    (
      "fn-1.5",
      #"substring(model, 2, -1) == "" and substring(model, 2, 9223372036854775807) == "hone 14 Pro""#,
      .true
    ),
    ("fn-1.6", #"indexOf(model, "14") == 7 and indexOf(model, "x") == -1"#, .true),
    ("fn-1.7", #"trim("  a b \n") == "a b" and trim("   ") == """#, .true),
    (
      "fn-1.8",
      #"replace(model, "14", "15") == "iPhone 15 Pro" and replace(model, "", "x") == `model`"#,
      .true
    ),
    (
      "fn-1.9",
      #"startsWith(model, "iPhone") and endsWith(model, "Pro") and contains(model, "14")"#, .true
    ),
    ("fn-1.10", #"beginsWith(model, "x")"#, .false),
    ("fn-1.11", #"substring(processor, 0, $missing) == "A""#, .unknown),
    ("fn-1.12", #"len(substring("👍🏽ab", 0, 1)) == 1"#, .true),
    // Dates (UTC); weekday is ISO: Monday 1 ... Sunday 7. 2022-09-16 was a Friday.
    ("fn-2.1", "year(released) == 2022 and month(released) == 9 and day(released) == 16", .true),
    (
      "fn-2.2", "weekday(released) == 5 and weekday(2022-09-18) == 7 and weekday(1969-12-29) == 1",
      .true
    ),
    ("fn-2.3", "hour(2022-09-16T10:42:00Z) == 10 and minute(2022-09-16T10:42:00Z) == 42", .true),
    ("fn-2.3s", "second(2022-09-16T10:42:07Z) == 7 and second(1969-12-31T23:59:58Z) == 58", .true),
    ("fn-2.4", "hour(1969-12-31T23:30:00Z) == 23 and day(1969-12-31T23:30:00Z) == 31", .true),
    ("fn-2.5", "hour(released) == 0 and year(updated) == 2022", .unknown),
    ("fn-2.6", #"date("16/09/2022", "%d/%m/%Y") == `released`"#, .true),
    ("fn-2.7", #"date("Sep 16, 22", "%b %d, %y") == `released`"#, .true),
    ("fn-2.8", #"date("16 september 2022 10:00", "%d %B %Y %H:%M") == `released`"#, .true),
    // Date-times written with a space (SQL databases, pandas, CSV exports), with a fraction
    // and an offset; a date-time's text gives its day to date(); a date is its midnight.
    (
      "fn-2.9",
      #"datetime("2022-09-16 10:42:00") == 2022-09-16T10:42:00Z and datetime("2022-09-16T10:42:00.5+02:00") == 2022-09-16T08:42:00.5Z"#,
      .true
    ),
    (
      "fn-2.10",
      #"date("2022-09-16 23:59:59") == `released` and date("2022-09-16T10:00:00Z") == `released`"#,
      .true
    ),
    (
      "fn-2.11",
      #"datetime(released) == 2022-09-16T00:00:00Z and datetime("2022-09-16") == datetime(released) and datetime(2022-09-16T01:02:03Z) == 2022-09-16T01:02:03Z"#,
      .true
    ),
    (
      "fn-2.12",
      #"datetime("16/09/2022 10:42", "%d/%m/%Y %H:%M") == 2022-09-16T10:42:00Z and datetime("16/09/2022", "%d/%m/%Y") == 2022-09-16T00:00:00Z and hour(datetime("2022-09-16 07:05:00")) == 7"#,
      .true
    ),
    (
      "fn-2.13", #"datetime("16/09/2022 23:59:60", "%d/%m/%Y %H:%M:%S") == 2022-09-16T23:59:59Z"#,
      .true
    ),
    // Times of day: their parts, text and date-times converted, arithmetic around the
    // clock, a time from another time a duration.
    (
      "fn-2.14",
      "hour(22:15:30.5) == 22 and minute(22:15:30.5) == 15 and second(22:15:30.5) == 30 and hour(24:00) == 24",
      .true
    ),
    (
      "fn-2.15",
      #"time("22:00") == 22:00 and time("09:30:15.25") == 09:30:15.25 and time(2022-09-16T10:42:00.5Z) == 10:42:00.5 and time("2022-09-16 23:00:00+02") == 21:00 and time(1969-12-31T23:30:00Z) == 23:30"#,
      .true
    ),
    (
      "fn-2.17",
      "23:00 + 2h == 01:00 and 01:00 - 2h == 23:00 and 2h + 22:00 == 24:00 - 24h and 22:00 - 09:30 == 12h30m and 09:30 - 22:00 == -12h30m and 12:00 + 3d1h == 13:00",
      .true
    ),
    (
      "fn-2.18",
      "22:00 > 09:30 and 24:00 > 23:59:59.999999999 and 00:00 < 00:00:00.000000001 and 22:00 == 22:00:00.000 and 22:00 in (09:30, 22:00) and 12:00 between 09:00 and 17:00",
      .true
    ),
    (
      "fn-2.19",
      #"text(09:05) == "09:05:00" and text(09:05:00.120) == "09:05:00.12" and min(22:00, 09:00) == 09:00"#,
      .true
    ),
    // Conversions.
    (
      "fn-3.1", #"int("42") == 42 and int(" -7 ") == -7 and int(6.9) == 6 and int(-6.9) == -6"#,
      .true
    ),
    ("fn-3.2", "int(true) == 1 and double(price) == 999.0 and double(\"2.5\") == 2.5", .true),
    (
      "fn-3.3",
      #"text(price) == "999" and text(screenSize) == "6.1" and text(released) == "2022-09-16""#,
      .true
    ),
    ("fn-3.4", #"text(inStock) == "true" and text(warranty) == "365d""#, .true),
    ("fn-3.5", #"bool("TRUE") and not bool(0) and bool(1)"#, .true),
    // Paths through lists of records, and arithmetic per element.
    ("fn-6.1", "any accessories.price < 20 and any accessories.name == Strap", .true),
    ("fn-6.2", "all accessories.price > 10", .unknown),
    // The strap has no price and no tags: null elements, so none and all are unknown.
    ("fn-6.3", "none accessories.price > 100", .unknown),
    ("fn-6.4", "any accessories.tags == 20W and len(accessories.name) == 3", .true),
    ("fn-6.8", "len(accessories.tags) == 4", .true),
    ("fn-6.5", "any accessories.price % 2 == 1 and all -accessories.price < 0", .unknown),
    ("fn-6.6", "any accessories.price * 2 == 98 and any 100 - accessories.price == 81", .true),
    ("fn-6.7", "any scores % 2 == 1 and any scores * 10 == 50", .true),
    // Positions: tags[i] is at(tags, i); from 0, negative from the end, null out of range.
    ("fn-7.1", "tags[0] == 5G and tags[-1] == eSIM and at(tags, 1) == eSIM", .true),
    ("fn-7.2", "tags[2] is null and tags[-3] is null and tags[9223372036854775807] is null", .true),
    ("fn-7.3", "tags[-9223372036854775808] is null and scores[2] is null", .true),
    ("fn-7.4", "accessories.price[1] == 19 and accessories.price[2] > 0", .unknown),
    ("fn-7.5", "model[0] == i and model[-1] == o and len(accessories.name[0]) == 4", .true),
    // Functions of single values apply to each element of a list given first.
    ("fn-9.1", "any lower(tags) == 5g and none upper(tags) == 5g", .true),
    ("fn-9.2", "any substring(accessories.name, 0, 2) == Ch and len(lower(tags)) == 2", .true),
    ("fn-9.3", "all int(text(accessories.price)) >= 19", .unknown),
    // A filter on the fields of each element.
    ("fn-8.1", "any accessories (price < 20 and name startsWith Ch)", .true),
    ("fn-8.2", "any accessories (price < 20 and name == Case)", .false),
    ("fn-8.3", "all accessories (price > 10 or name == Strap)", .true),
    ("fn-8.4", "all accessories (price > 10)", .unknown),
    ("fn-8.5", "none accessories (name == Case and price > $budget)", .true),
    ("fn-8.6", "any accessories (any tags == leather) and any accessories (len(tags) == 2)", .true),
    // Conditionals see nulls and evaluate only what they need.
    ("fn-4.1", #"if(price > 500, "high", "low") == "high""#, .true),
    ("fn-4.2", #"if(updated > 2020-01-01, 1, 2) == 2"#, .true),
    ("fn-4.3", "if(price > 0, price, price / 0) == 999", .true),
    ("fn-4.4", "coalesce(updated, released) == 2022-09-16", .true),
    ("fn-4.5", "coalesce(discontinued, updated) is null", .true),
    ("fn-4.6", "coalesce(camera.zoom, 1.5, price / 0) == 1.5", .true),
    // SQL's NULLIF: null where the two are equal; a null second argument leaves the first.
    ("fn-4.7", "nullif(price, 999) is null and nullif(price, 998.5) == 999", .true),
    (
      "fn-4.8",
      "nullif(color, $nothing) == `color` and nullif(updated, 2022-09-16T00:00:00Z) is null", .true
    ),
    (
      "fn-4.9", #"nullif(model, "IPHONE 14 PRO") == `model` and nullif(screenSize, 6.1) is null"#,
      .true
    ),
  ])
  func truth(id: String, filter: String, expected: Truth) throws {
    try ReferenceEvaluatorTests.expectBothEngines(id, filter, expected) { $0.isEmpty }
  }

  /// What does not convert is null and counted, never a trap.
  @Test(arguments: [
    ("fn-5.1", #"int("12.5") == 12"#), ("fn-5.2", #"int("x") == 1"#),
    ("fn-5.3", "int(screenSize * 1e300) == 1"), ("fn-5.4", #"double("nan") == 1"#),
    ("fn-5.5", #"double("1e400") > 1"#), ("fn-5.6", #"bool("maybe")"#), ("fn-5.7", "bool(2)"),
    ("fn-5.8", #"date("2022-13-45", "%Y-%m-%d") == `released`"#),
    ("fn-5.9", #"date("16/09/2022", "%Y-%m-%d") == `released`"#),
    ("fn-5.10", #"date(model) == `released`"#),
    ("fn-5.11", "int(9.3e18) == 1"),
    ("fn-5.12", #"datetime(model) > 2022-01-01T00:00:00Z"#),
    ("fn-5.13", #"datetime("2022-09-16 25:00:00") > 2022-01-01T00:00:00Z"#),
    ("fn-5.14", #"datetime("2022-09-16  10:00") > 2022-01-01T00:00:00Z"#),
    ("fn-5.15", #"datetime("16/09/2022 10", "%d/%m/%Y %H:%M") > 2022-01-01T00:00:00Z"#),
    ("fn-5.16", #"time("25:00") == 01:00"#), ("fn-5.17", #"time("9:30") == 09:30"#),
    ("fn-5.18", #"time(model) == 09:30"#),
  ])
  func failedConversions(id: String, filter: String) throws {
    try ReferenceEvaluatorTests.expectBothEngines(id, filter, .unknown) { $0.total == 1 }
  }

  @Test(arguments: [
    (#"date(model, "%Q")"#, "'%Q' is not a date format directive"),
    (#"date(model, "%d/%m")"#, "a date format needs the year"),
    (#"date(model, "%Y-%m-%d%")"#, "the date format ends with '%'"),
    (#"datetime(model, "%H:%M")"#, "a date format needs the year"),
    ("datetime(price) == now()", "datetime takes text, a date or a date-time, not"),
    (#"datetime(model, 3) == now()"#, "datetime(text, format) takes two texts"),
    (#"if(price, 1, 2) == 1"#, "if takes a condition first"),
    (#"if(inStock, 1, "a") == 1"#, "if gives one kind of value"),
    (#"coalesce(price, model) == 1"#, "coalesce takes values of one kind"),
    (#"nullif(price, model) == 1"#, "nullif compares two values of one kind"),
    ("int(camera) == 1", "int takes"), ("year(price) == 1", "year takes a date"),
    (#"substring(model, "a") == "b""#, "substring takes text"),
    ("time(released) == 09:30", "time takes text, a date-time or a time of day, not a date"),
    ("year(09:30) == 1", "year takes a date or a date-time, not a time of day"),
    ("hour(price) == 1", "hour takes a date, a date-time or a time of day"),
    ("09:30 + 09:30 == 19:00", "cannot apply '+'"),
  ])
  func typeErrors(filter: String, message: String) {
    let diagnostics = CheckerTests.check(filter)
    #expect(diagnostics.count == 1, "\(filter): \(diagnostics)")
    #expect(diagnostics.first?.contains(message) == true, "\(filter): \(diagnostics)")
  }
}
