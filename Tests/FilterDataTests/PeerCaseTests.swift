import FilterDSL
import Testing

@testable import FilterData

/// Cases translated from six peers' own tests and references, each written in flt and run on
/// two JSON records, with the peer's answer: CEL's conformance suite (cel-spec
/// `tests/simple/testdata`: logic, comparisons, string, integer and floating-point math,
/// conversions, macros, fields, timestamps, lists), SQLite's TCL tests (`expr.test`,
/// `func.test`, `date.test`, `cast.test`), Meilisearch's filter expressions, Google's AIP-160
/// filtering, OData 4.01's `$filter` (URL conventions, 5.1.1), and NSPredicate's predicate
/// format. A peer's error is `unknown` here (flt counts a fault and the test is unknown).
///
/// Every case says how flt's answer stands to the peer's: the same; different by design (flt's
/// own answer, with the reason: SQL's rules where the peers disagree among themselves); or
/// failing (what flt lacks). The issue this suite measures asks for at most four failures.
@Suite struct PeerCaseTests {
  /// How flt's answer stands to the peer's.
  enum Verdict: Sendable {
    /// flt answers as the peer does.
    case same
    /// flt answers otherwise by design: its answer (nil: the checker rejects the filter, with
    /// a message that says what to write), and why.
    case design(Truth?, String)
    /// flt answers otherwise, and should not: what it lacks.
    case failing(String)
  }

  struct PeerCase: Sendable, CustomTestStringConvertible {
    let peer: String
    let source: String
    let peerText: String
    let filter: String
    let answer: Truth
    let record: Int
    let verdict: Verdict

    init(
      _ peer: String, _ source: String, _ peerText: String, _ filter: String, _ answer: Truth,
      record: Int = 1, _ verdict: Verdict = .same
    ) {
      (self.peer, self.source, self.peerText, self.filter) = (peer, source, peerText, filter)
      (self.answer, self.record, self.verdict) = (answer, record, verdict)
    }

    var testDescription: String { "\(peer) \(source)" }

    var isFailing: Bool {
      if case .failing = verdict { return true }
      return false
    }
  }

  /// The records: a phone with every kind of value (a null, a nested record with a null, lists
  /// of values and of records, a place), and a second lacking most fields.
  static let records = """
    {"id": 1, "name": "iPhone 14 Pro", "brand": "Apple", "price": 999, "cost": 2.55, "discount": 0.55, "rating": 4.5, "stock": 7, "color": "Space Black", "tags": ["5G", "eSIM"], "scores": [4, 5], "released": "2022-09-16", "updated": null, "placed": "2022-09-16T10:30:00Z", "camera": {"mp": 48, "zoom": null}, "items": [{"name": "Case", "price": 49}, {"name": "Charger", "price": 19}], "lat": 48.8566, "lng": 2.3522, "title": "Café Crème", "nick": "", "flags": 6, "city": "Berlin", "country": "Germany"}
    {"id": 2, "name": "Pixel 7", "brand": "Google", "price": 599, "color": "Snow", "tags": [], "scores": [], "camera": {"mp": 50}, "items": [], "nick": "px"}

    """

  static let cases: [PeerCase] = [
    // CEL
    PeerCase(
      "CEL", "logic/conditional/true_case", "(true ? 1 : 2) == 1", "if(true, 1, 2) == 1", .true),
    PeerCase(
      "CEL", "logic/conditional/error_case", "(2 / 0 > 4 ? 'baz' : 'quux') == 'quux'",
      #"if(2 / 0 > 4, "baz", "quux") == "quux""#, .unknown,
      .design(
        .true,
        "`if` takes its else branch when the condition is unknown (the fault is counted), as SQL's CASE does; CEL stops with an error"
      )),
    PeerCase(
      "CEL", "logic/AND/short_circuit_error_left", "false && (2 / 0 > 3 ? false : true)",
      "false and if(2 / 0 > 3, false, true)", .false),
    PeerCase(
      "CEL", "logic/AND/short_circuit_error_right", "(2 / 0 > 3 ? false : true) && false",
      "if(2 / 0 > 3, false, true) and false", .false),
    PeerCase("CEL", "logic/AND/error_right", "true && 1/0 != 0", "true and 1 / 0 != 0", .unknown),
    PeerCase(
      "CEL", "logic/OR/short_circuit_error_right", "(1/0 != 0) || true", "1 / 0 != 0 or true", .true
    ),
    PeerCase("CEL", "logic/OR/error_left", "1/0 != 0 || false", "1 / 0 != 0 or false", .unknown),
    PeerCase("CEL", "logic/NOT/not_false", "!false", "not false", .true),
    PeerCase("CEL", "comparisons/eq_mixed_types/int_double", "1 == 1.0", "1 == 1.0", .true),
    PeerCase("CEL", "comparisons/lt_literal/lt_mixed_int_double", "1 < 1.5", "1 < 1.5", .true),
    PeerCase(
      "CEL", "comparisons/lt_literal/string_code_points", "'a' < 'B'", #""a" < "B""#, .false),
    PeerCase(
      "CEL", "comparisons/eq_literal/eq_list_order", "[1, 2] == [2, 1]", "(1, 2) == (2, 1)", .false),
    PeerCase(
      "CEL", "comparisons/eq_literal/eq_list_same", "[1, 2] == [1, 2]", "(1, 2) == (1, 2)", .true),
    PeerCase(
      "CEL", "comparisons/ne_literal/ne_list_length", "[1, 2] != [1, 2, 3]", "(1, 2) != (1, 2, 3)",
      .true),
    PeerCase(
      "CEL", "comparisons/in_list_literal/elem_in_list", "2 in [1, 2, 3]", "2 in (1, 2, 3)", .true),
    PeerCase(
      "CEL", "comparisons/in_list_literal/elem_not_in_list", "'a' in ['b']", #""a" in (b,)"#, .false
    ),
    PeerCase("CEL", "comparisons/in_list_field", "'5G' in tags", #""5G" in `tags`"#, .true),
    PeerCase("CEL", "string/size/size_unicode", "size('é') == 1", #"len("é") == 1"#, .true),
    PeerCase(
      "CEL", "string/starts_with/basic", "'hello'.startsWith('he')", #""hello" startsWith "he""#,
      .true),
    PeerCase(
      "CEL", "string/ends_with/basic", "'hello'.endsWith('lo')", #""hello" endsWith "lo""#, .true),
    PeerCase(
      "CEL", "string/contains/basic", "'hello'.contains('ell')", #""hello" contains "ell""#, .true),
    PeerCase(
      "CEL", "string/matches/partial", "'hubba'.matches('ubb')", #""hubba" matches ".*ubb.*""#,
      .true),
    PeerCase(
      "CEL", "string/matches/anchored", "'abc'.matches('^b')", #""abc" matches "b.*""#, .false),
    PeerCase("CEL", "string/concat", "'a' + 'b' == 'ab'", #""a" + "b" == "ab""#, .true),
    PeerCase(
      "CEL", "integer_math/int64_overflow_positive", "9223372036854775807 + 1 > 0",
      "9223372036854775807 + 1 > 0", .unknown),
    PeerCase(
      "CEL", "integer_math/int64_overflow_div", "-9223372036854775808 / -1 > 0",
      "-9223372036854775808 // -1 > 0", .unknown),
    PeerCase("CEL", "integer_math/mod_negative", "-5 % 3 == -2", "-5 % 3 == -2", .true),
    // (CEL's, SQLite's and OData's `/` or `div` of integers is flt's `//`; flt's `/` divides
    // exactly, as DuckDB's, Python's and pandas' do.)
    PeerCase("CEL", "integer_math/div_truncates", "-7 / 2 == -3", "-7 // 2 == -3", .true),
    PeerCase(
      "CEL", "integer_math/int64_neg_min", "-(-9223372036854775808) > 0",
      "-(-9223372036854775808) > 0", .unknown),
    PeerCase(
      "CEL", "fp_math/div_by_zero", "1.0 / 0.0 > 0.0", "1.0 / 0.0 > 0.0", .true,
      .design(
        .unknown,
        "a division by zero is a fault for decimals too (null, counted), as in SQL; CEL follows IEEE (infinity)"
      )),
    PeerCase("CEL", "conversions/int/double_truncate", "int(1.9) == 1", "int(1.9) == 1", .true),
    PeerCase(
      "CEL", "conversions/int/double_truncate_neg", "int(-1.9) == -1", "int(-1.9) == -1", .true),
    PeerCase("CEL", "conversions/int/string_bad", "int('abc') == 0", #"int("abc") == 0"#, .unknown),
    PeerCase(
      "CEL", "conversions/string/int", "string(123) == '123'", #"text(123) == "123""#, .true),
    PeerCase(
      "CEL", "conversions/double/string", "double('1.5') == 1.5", #"double("1.5") == 1.5"#, .true),
    PeerCase("CEL", "conversions/bool/string", "bool('true')", #"bool("true")"#, .true),
    PeerCase("CEL", "macros/exists/list_field", "scores.exists(x, x > 4)", "any scores > 4", .true),
    PeerCase("CEL", "macros/all/list_field", "scores.all(x, x > 4)", "all scores > 4", .false),
    PeerCase("CEL", "macros/all/empty", "[].all(x, x > 0)", "all `scores` > 0", .true, record: 2),
    PeerCase(
      "CEL", "macros/exists/empty", "[].exists(x, x > 0)", "any scores > 0", .false, record: 2),
    PeerCase(
      "CEL", "macros/exists_one/list", "scores.exists_one(x, x == 5)", "one scores == 5", .true),
    PeerCase(
      "CEL", "macros/map", "[1, 2, 3].map(x, x * 2) == [2, 4, 6]", "(1, 2, 3) * 2 == (2, 4, 6)",
      .true),
    PeerCase(
      "CEL", "macros/filter", "[1, 2, 3].filter(x, x > 1) == [2, 3]",
      "((1, 2, 3) where it > 1) == (2, 3)", .true,
      .failing(
        "`where` keeps the records of a list of records; a list of values has no name for its element"
      )),
    PeerCase("CEL", "fields/has/present", "has(camera.mp)", "exists camera.mp", .true),
    PeerCase(
      "CEL", "fields/has/absent", "has(camera.zoom)", "exists camera.zoom", .false, record: 2),
    PeerCase(
      "CEL", "timestamps/compare",
      "timestamp('2009-02-13T23:31:30Z') < timestamp('2009-02-13T23:31:31Z')",
      "2009-02-13T23:31:30Z < 2009-02-13T23:31:31Z", .true),
    PeerCase(
      "CEL", "timestamps/duration_equal", "duration('1h') == duration('60m')", "1h == 60m", .true),
    PeerCase(
      "CEL", "timestamps/add_duration",
      "timestamp('2009-02-13T23:31:30Z') + duration('1h') == timestamp('2009-02-14T00:31:30Z')",
      "2009-02-13T23:31:30Z + 1h == 2009-02-14T00:31:30Z", .true),
    PeerCase(
      "CEL", "timestamps/get_full_year", "placed.getFullYear() == 2022", "year(placed) == 2022",
      .true),
    PeerCase("CEL", "lists/concat", "[1] + [2] == [1, 2]", "(1,) + (2,) == (1, 2)", .true),
    PeerCase("CEL", "lists/index", "tags[1] == 'eSIM'", "tags[1] == eSIM", .true),
    PeerCase("CEL", "lists/size", "size(tags) == 2", "len(tags) == 2", .true),
    PeerCase(
      "CEL", "basic/null_eq", "null == null", "null == null", .true,
      .design(
        .unknown,
        "SQL's three-valued `==`: a comparison with null is unknown, and the checker warns (FLT313) and points to `is null` / `is not null`, which give the peer's answer"
      )),
    // SQLite
    PeerCase("SQLite", "expr.test/null_eq", "NULL = NULL", "null == null", .unknown),
    PeerCase("SQLite", "expr.test/is_null", "NULL IS NULL", "null is null", .true),
    PeerCase("SQLite", "expr.test/is_not", "1 IS NOT 2", "1 is not 2", .true),
    PeerCase(
      "SQLite", "expr.test/is_not_null_null", "NULL IS NOT NULL", "null is not null", .false),
    PeerCase("SQLite", "expr.test/between", "5 BETWEEN 1 AND 10", "5 between 1 and 10", .true),
    PeerCase(
      "SQLite", "expr.test/not_between", "5 NOT BETWEEN 6 AND 10", "5 not between 6 and 10", .true),
    PeerCase("SQLite", "expr.test/int_div", "7 / 2 = 3", "7 // 2 == 3", .true),
    PeerCase("SQLite", "expr.test/real_div", "7.0 / 2 = 3.5", "7.0 / 2 == 3.5", .true),
    PeerCase("SQLite", "expr.test/mod_neg", "-7 % 3 = -1", "-7 % 3 == -1", .true),
    PeerCase("SQLite", "expr.test/div_zero", "(1 / 0) IS NULL", "1 / 0 is null", .true),
    PeerCase(
      "SQLite", "expr.test/in_null_true", "1 IN (1, 2, NULL)", "1 in (1, 2, `updated`)", .true),
    PeerCase(
      "SQLite", "expr.test/in_null_unknown", "3 IN (1, 2, NULL)", "3 in (1, 2, `updated`)", .unknown
    ),
    PeerCase(
      "SQLite", "expr.test/not_in_null", "3 NOT IN (1, 2, NULL)", "3 not in (1, 2, `updated`)",
      .unknown),
    PeerCase(
      "SQLite", "expr.test/case_when", "CASE WHEN 1 > 2 THEN 'a' ELSE 'b' END = 'b'",
      #"case when 1 > 2 then "a" else "b" end == "b""#, .true),
    PeerCase(
      "SQLite", "expr.test/case_no_else", "CASE WHEN 1 > 2 THEN 'a' END IS NULL",
      #"case when 1 > 2 then "a" end is null"#, .true),
    PeerCase(
      "SQLite", "func.test/coalesce", "coalesce(NULL, 2) = 2", "coalesce(`updated`, 2) == 2", .true),
    PeerCase(
      "SQLite", "func.test/ifnull", "ifnull(NULL, 3) = 3", "coalesce(`updated`, 3) == 3", .true),
    PeerCase("SQLite", "func.test/nullif", "nullif(1, 1) IS NULL", "nullif(1, 1) is null", .true),
    PeerCase("SQLite", "func.test/length", "length('héllo') = 5", #"len("héllo") == 5"#, .true),
    PeerCase(
      "SQLite", "func.test/substr", "substr('hello', 2, 3) = 'ell'",
      #"substring("hello", 1, 3) == "ell""#, .true),
    PeerCase("SQLite", "func.test/abs", "abs(-5) = 5", "abs(-5) == 5", .true),
    PeerCase(
      "SQLite", "func.test/abs_min", "abs(-9223372036854775808)", "abs(-9223372036854775808) > 0",
      .unknown),
    PeerCase("SQLite", "func.test/max_scalar", "max(1, 5, 3) = 5", "max(1, 5, 3) == 5", .true),
    PeerCase(
      "SQLite", "func.test/min_null", "min(1, NULL) IS NULL", "min(1, `updated`) is null", .true),
    PeerCase("SQLite", "func.test/trim", "trim('  a  ') = 'a'", #"trim("  a  ") == "a""#, .true),
    PeerCase("SQLite", "func.test/upper", "upper('abc') = 'ABC'", #"upper("abc") == "ABC""#, .true),
    PeerCase(
      "SQLite", "func.test/replace", "replace('abc', 'b', 'x') = 'axc'",
      #"replace("abc", "b", "x") == "axc""#, .true),
    PeerCase(
      "SQLite", "func.test/instr", "instr('hello', 'l') = 3", #"indexOf("hello", "l") + 1 == 3"#,
      .true),
    PeerCase("SQLite", "func.test/round_half", "round(2.5) = 3.0", "round(2.5) == 3", .true),
    PeerCase(
      "SQLite", "func.test/round_neg_half", "round(-2.5) = -3.0", "round(-2.5) == -3", .true),
    PeerCase("SQLite", "expr.test/bitand", "5 & 3 = 1", "5 & 3 == 1", .true),
    PeerCase("SQLite", "expr.test/bitor", "5 | 3 = 7", "5 | 3 == 7", .true),
    PeerCase("SQLite", "expr.test/bitnot", "~5 = -6", "~5 == -6", .true),
    PeerCase("SQLite", "expr.test/shift", "1 << 3 = 8", "1 << 3 == 8", .true),
    PeerCase("SQLite", "expr.test/shift_neg", "8 >> -1 = 16", "8 >> -1 == 16", .true),
    PeerCase("SQLite", "expr.test/concat", "'a' || 'b' = 'ab'", #""a" + "b" == "ab""#, .true),
    PeerCase("SQLite", "expr.test/text_compare", "'10' < '9'", #""10" < "9""#, .true),
    PeerCase("SQLite", "expr.test/like_ci", "'abc' LIKE 'A%'", #""abc" like[c] "A*""#, .true),
    PeerCase("SQLite", "expr.test/glob", "'abc' GLOB 'a*'", #""abc" like "a*""#, .true),
    PeerCase(
      "SQLite", "expr.test/glob_class", "'abc' GLOB '[a-c]b?'", #""abc" like "[a-c]b?""#, .true),
    PeerCase(
      "SQLite", "date.test/date_plus_day", "date('2022-09-16', '+1 day') = '2022-09-17'",
      "2022-09-16 + 1d == 2022-09-17", .true),
    PeerCase(
      "SQLite", "date.test/strftime_year", "strftime('%Y', released) = '2022'",
      "year(released) == 2022", .true),
    PeerCase(
      "SQLite", "date.test/julianday_diff",
      "julianday('2022-09-17') - julianday('2022-09-16') = 1.0", "2022-09-17 - 2022-09-16 == 1d",
      .true),
    PeerCase(
      "SQLite", "cast.test/cast_int", "CAST('42' AS INTEGER) = 42", #"cast("42" as integer) == 42"#,
      .true),
    PeerCase(
      "SQLite", "cast.test/cast_real_int", "CAST(3.9 AS INTEGER) = 3", "cast(3.9 as integer) == 3",
      .true),
    PeerCase(
      "SQLite", "cast.test/cast_text", "CAST(999 AS TEXT) = '999'",
      #"cast(price as text) == "999""#, .true),
    PeerCase(
      "SQLite", "cast.test/cast_prefix", "CAST('12abc' AS INTEGER) = 12",
      #"cast("12abc" as integer) == 12"#, .true,
      .design(
        .unknown,
        "text that is not a whole integer does not convert (null, counted; PostgreSQL raises an error); SQLite takes the leading digits"
      )),
    PeerCase(
      "SQLite", "expr.test/iif", "iif(1 < 2, 'y', 'n') = 'y'", #"iif(1 < 2, "y", "n") == "y""#,
      .true),
    PeerCase("SQLite", "expr.test/and_null", "NULL AND 0", "`updated` == 1 and false", .false),
    PeerCase("SQLite", "expr.test/or_null", "NULL OR 1", "`updated` == 1 or true", .true),
    PeerCase(
      "SQLite", "expr.test/mixed_cmp", "10 < '9'", #"10 < "9""#, .true,
      .design(
        nil,
        #"flt is typed: text and numbers do not compare, and the checker says so with a fix ('remove the quotes')"#
      )),
    // Meilisearch
    PeerCase(
      "Meilisearch", "filter/equal", #"color = "Space Black""#, #"color == "Space Black""#, .true),
    PeerCase(
      "Meilisearch", "filter/equal_case", #"color = "space black""#, #"color ==[c] "space black""#,
      .true),
    PeerCase("Meilisearch", "filter/array_equal", "tags = 5G", "any tags == 5G", .true),
    PeerCase("Meilisearch", "filter/not_equal", "color != Gold", "color != Gold", .true),
    PeerCase(
      "Meilisearch", "filter/range_to", "price 100 TO 1000", "price between 100 and 1000", .true),
    PeerCase(
      "Meilisearch", "filter/in", #"color IN [Gold, "Space Black"]"#,
      #"color in (Gold, "Space Black")"#, .true),
    PeerCase("Meilisearch", "filter/not_in", "color NOT IN [Gold]", "color not in (Gold,)", .true),
    PeerCase("Meilisearch", "filter/not", "NOT color = Gold", "not color == Gold", .true),
    PeerCase("Meilisearch", "filter/is_null", "updated IS NULL", "updated is null", .true),
    PeerCase(
      "Meilisearch", "filter/is_not_null", "updated IS NOT NULL", "updated is not null", .false),
    PeerCase("Meilisearch", "filter/exists_null", "updated EXISTS", "exists updated", .true),
    PeerCase(
      "Meilisearch", "filter/not_exists", "updated NOT EXISTS", "not exists updated", .true,
      record: 2),
    PeerCase(
      "Meilisearch", "filter/is_null_missing", "updated IS NULL", "updated is null", .false,
      record: 2,
      .design(
        .true,
        "`is null` is SQL's, true for a missing field too; `exists` tells a key present with null from an absent one"
      )),
    PeerCase("Meilisearch", "filter/is_empty_text", "nick IS EMPTY", "nick is empty", .true),
    PeerCase(
      "Meilisearch", "filter/is_empty_list", "tags IS EMPTY", "tags is empty", .true, record: 2),
    PeerCase("Meilisearch", "filter/is_not_empty", "tags IS NOT EMPTY", "tags is not empty", .true),
    PeerCase("Meilisearch", "filter/nested", "camera.mp = 48", "camera.mp == 48", .true),
    PeerCase("Meilisearch", "filter/float", "rating >= 4.5", "rating >= 4.5", .true),
    PeerCase(
      "Meilisearch", "filter/geo_radius", "_geoRadius(48.8566, 2.3522, 1000)",
      "distance(lat, lng, 48.8566, 2.3522) <= 1000", .true),
    PeerCase(
      "Meilisearch", "filter/geo_radius_far", "_geoRadius(52.52, 13.405, 1000)",
      "distance(lat, lng, 52.52, 13.405) <= 1000", .false),
    PeerCase(
      "Meilisearch", "filter/geo_box", "_geoBoundingBox([49, 2.4], [48.8, 2.3])",
      "inBox(lat, lng, 48.8, 2.3, 49, 2.4)", .true),
    PeerCase("Meilisearch", "filter/contains", "name CONTAINS pro", "name contains[cd] pro", .true),
    PeerCase(
      "Meilisearch", "filter/starts_with", "name STARTS WITH iph", "name startsWith[cd] iph", .true),
    PeerCase("Meilisearch", "filter/string_gt", #"color > "S""#, "color > S", .true),
    PeerCase(
      "Meilisearch", "filter/and_or", #"price > 500 AND (color = Gold OR color = "Space Black")"#,
      #"price > 500 and (color == Gold or color == "Space Black")"#, .true),
    PeerCase(
      "Meilisearch", "filter/number_as_string", #"price = "999""#, #"price == "999""#, .true,
      .design(
        nil,
        #"flt is typed: text and numbers do not compare, and the checker says so with a fix ('remove the quotes')"#
      )),
    // AIP-160
    PeerCase("AIP-160", "literals/equality", #"brand = "Apple""#, "brand == Apple", .true),
    PeerCase("AIP-160", "literals/wildcard_suffix", #"name = "*Pro""#, #"name like "*Pro""#, .true),
    PeerCase(
      "AIP-160", "literals/wildcard_prefix", #"name = "iPhone*""#, #"name like "iPhone*""#, .true),
    PeerCase(
      "AIP-160", "logic/and", #"price > 500 AND color = "Space Black""#,
      #"price > 500 and color == "Space Black""#, .true),
    PeerCase(
      "AIP-160", "logic/or_binds_tighter",
      #"price > 1000 AND color = "Gold" OR color = "Space Black""#,
      #"price > 1000 and (color == Gold or color == "Space Black")"#, .false),
    PeerCase("AIP-160", "logic/not", #"NOT color = "Gold""#, "not color == Gold", .true),
    PeerCase("AIP-160", "logic/minus_not", #"-color = "Gold""#, "not color == Gold", .true),
    PeerCase(
      "AIP-160", "logic/implicit_and", #"price > 500 color = "Space Black""#,
      #"price > 500 and color == "Space Black""#, .true),
    PeerCase("AIP-160", "comparison/ne", "stock != 0", "stock != 0", .true),
    PeerCase(
      "AIP-160", "comparison/timestamp", #"placed > "2022-01-01T00:00:00Z""#,
      "placed > 2022-01-01T00:00:00Z", .true),
    PeerCase("AIP-160", "comparison/duration", #""1.5s" > "1s""#, "1500ms > 1s", .true),
    PeerCase("AIP-160", "traversal/nested", "camera.mp > 40", "camera.mp > 40", .true),
    PeerCase("AIP-160", "has/repeated", "tags:5G", "tags contains 5G", .true),
    PeerCase("AIP-160", "has/repeated_absent", "tags:LTE", "tags contains LTE", .false),
    PeerCase("AIP-160", "has/presence", "camera.zoom:*", "exists camera.zoom", .true),
    PeerCase("AIP-160", "has/presence_absent", "updated:*", "exists updated", .false, record: 2),
    PeerCase("AIP-160", "has/map_key_nested", "items.name:Case", "any items.name == Case", .true),
    PeerCase(
      "AIP-160", "functions/call", #"startsWith(name, "iPhone")"#, #"startsWith(name, "iPhone")"#,
      .true),
    PeerCase("AIP-160", "literals/number_float", "rating = 4.5", "rating == 4.5", .true),
    PeerCase("AIP-160", "literals/enum", "color = SPACE_BLACK", #"color == "Space Black""#, .true),
    // OData
    PeerCase(
      // (OData's Price is an Edm.Decimal; a JSON number is a double, converted.)
      "OData", "arithmetic/sub_decimal", "Price sub 0.55 eq 2.00", "decimal(cost) - 0.55 == 2.00",
      .true),
    PeerCase(
      "OData", "arithmetic/add_decimal", "Price add 2.45 eq 5.00", "cost + 2.45 == 5.00", .true),
    PeerCase(
      "OData", "arithmetic/mul_decimal", "Price mul 2.0 eq 5.10", "cost * 2.0 == 5.10", .true),
    PeerCase("OData", "arithmetic/div_int", "Stock div 2 eq 3", "stock // 2 == 3", .true),
    PeerCase("OData", "arithmetic/divby_int", "Stock divby 2 eq 3.5", "stock / 2 == 3.5", .true),
    PeerCase("OData", "arithmetic/divby", "Stock divby 2 eq 3.5", "stock / 2.0 == 3.5", .true),
    PeerCase("OData", "arithmetic/mod", "Stock mod 5 eq 2", "stock % 5 == 2", .true),
    PeerCase("OData", "arithmetic/negate", "-Stock eq -7", "-stock == -7", .true),
    PeerCase("OData", "string/contains", "contains(Name, 'Pro')", #"contains(name, "Pro")"#, .true),
    PeerCase(
      "OData", "string/startswith", "startswith(Name, 'iPhone')", #"startsWith(name, "iPhone")"#,
      .true),
    PeerCase(
      "OData", "string/endswith_not", "not endswith(Name, 'Max')", #"not endsWith(name, "Max")"#,
      .true),
    PeerCase("OData", "string/length", "length(Name) eq 13", "len(name) == 13", .true),
    PeerCase(
      "OData", "string/indexof", "indexof(Name, 'Pro') eq 10", #"indexOf(name, "Pro") == 10"#, .true
    ),
    PeerCase(
      "OData", "string/substring", "substring(Name, 7) eq '14 Pro'",
      #"substring(name, 7) == "14 Pro""#, .true),
    PeerCase(
      "OData", "string/substring_len", "substring(Name, 0, 6) eq 'iPhone'",
      #"substring(name, 0, 6) == "iPhone""#, .true),
    PeerCase(
      "OData", "string/tolower", "tolower(Name) eq 'iphone 14 pro'",
      #"lower(name) == "iphone 14 pro""#, .true),
    PeerCase(
      "OData", "string/toupper", "toupper(Brand) eq 'APPLE'", #"upper(brand) == "APPLE""#, .true),
    PeerCase("OData", "string/trim", "trim('  x ') eq 'x'", #"trim("  x ") == "x""#, .true),
    PeerCase(
      "OData", "string/concat", "concat(concat(City, ', '), Country) eq 'Berlin, Germany'",
      #"city + ", " + country == "Berlin, Germany""#, .true),
    PeerCase(
      "OData", "string/matchesPattern", "matchesPattern(Name, '^iPhone')",
      #"name matches "iPhone.*""#, .true),
    PeerCase("OData", "date/year", "year(Released) eq 2022", "year(released) == 2022", .true),
    PeerCase("OData", "date/month", "month(Released) eq 9", "month(released) == 9", .true),
    PeerCase("OData", "date/day", "day(Released) eq 16", "day(released) == 16", .true),
    PeerCase("OData", "date/hour", "hour(Placed) eq 10", "hour(placed) == 10", .true),
    PeerCase("OData", "date/minute", "minute(Placed) eq 30", "minute(placed) == 30", .true),
    PeerCase("OData", "date/second", "second(Placed) eq 0", "second(placed) == 0", .true),
    PeerCase(
      "OData", "date/date", "date(Placed) eq 2022-09-16", "date(placed) == 2022-09-16", .true),
    PeerCase("OData", "math/round", "round(Rating) eq 5", "round(rating) == 5", .true),
    PeerCase("OData", "math/floor", "floor(Rating) eq 4", "floor(rating) == 4", .true),
    PeerCase("OData", "math/ceiling", "ceiling(Rating) eq 5", "ceil(rating) == 5", .true),
    PeerCase("OData", "lambda/any", "Tags/any(t: t eq '5G')", "any tags == 5G", .true),
    PeerCase("OData", "lambda/all", "Tags/all(t: t ne 'LTE')", "all tags != LTE", .true),
    PeerCase(
      "OData", "lambda/any_record", "Items/any(i: i/Price gt 40)", "any items (price > 40)", .true),
    PeerCase("OData", "lambda/any_empty", "Tags/any()", "tags is not empty", .true),
    PeerCase("OData", "count/plain", "Items/$count eq 2", "count(items) == 2", .true),
    PeerCase(
      "OData", "count/filtered", "Items/$count($filter=Price gt 20) eq 1",
      "count(items where price > 20) == 1", .true),
    PeerCase(
      "OData", "in/list", "Color in ('Gold', 'Space Black')", #"color in (Gold, "Space Black")"#,
      .true),
    PeerCase(
      "OData", "null/eq_null", "Updated eq null", "updated == null", .true,
      .design(
        .unknown,
        "SQL's three-valued `==`: a comparison with null is unknown, and the checker warns (FLT313) and points to `is null` / `is not null`, which give the peer's answer"
      )),
    PeerCase(
      "OData", "null/ne_null", "Name ne null", "name != null", .true,
      .design(
        .unknown,
        "SQL's three-valued `==`: a comparison with null is unknown, and the checker warns (FLT313) and points to `is null` / `is not null`, which give the peer's answer"
      )),
    PeerCase(
      "OData", "null/eq_null_literal", "null eq null", "null == null", .true,
      .design(
        .unknown,
        "SQL's three-valued `==`: a comparison with null is unknown, and the checker warns (FLT313) and points to `is null` / `is not null`, which give the peer's answer"
      )),
    PeerCase(
      "OData", "cast/string", "cast(Price, Edm.String) eq '999'", #"cast(price as text) == "999""#,
      .true),
    PeerCase(
      "OData", "geo/distance", "geo.distance(Location, geography'POINT(2.35 48.85)') lt 1000",
      "distance(lat, lng, 48.85, 2.35) < 1000", .true),
    PeerCase(
      "OData", "precedence/and_or", "Price gt 500 and Color eq 'Gold' or Stock gt 5",
      "price > 500 and color == Gold or stock > 5", .true),
    PeerCase(
      "OData", "comparison/le_ge", "Price le 999 and Price ge 999", "price <= 999 and price >= 999",
      .true),
    // NSPredicate
    PeerCase(
      "NSPredicate", "strings/beginswith_c", "name BEGINSWITH[c] 'iph'", "name startsWith[c] iph",
      .true),
    PeerCase("NSPredicate", "strings/endswith", "name ENDSWITH 'Pro'", "name endsWith Pro", .true),
    PeerCase(
      "NSPredicate", "strings/contains_cd", "title CONTAINS[cd] 'creme'",
      "title contains[cd] creme", .true),
    PeerCase(
      "NSPredicate", "strings/equal_d", "title ==[d] 'Cafe Creme'", #"title ==[d] "Cafe Creme""#,
      .true),
    PeerCase(
      "NSPredicate", "strings/like_star", "name LIKE[c] '*pro'", #"name like[c] "*pro""#, .true),
    PeerCase(
      "NSPredicate", "strings/like_question", "brand LIKE 'Appl?'", #"brand like "Appl?""#, .true),
    PeerCase(
      "NSPredicate", "strings/matches_whole", "name MATCHES 'iPhone.*'",
      #"name matches "iPhone.*""#, .true),
    PeerCase(
      "NSPredicate", "strings/matches_partial_fails", "name MATCHES 'Pro'", #"name matches "Pro""#,
      .false),
    PeerCase(
      "NSPredicate", "comparison/between", "price BETWEEN {500, 1000}",
      "price between 500 and 1000", .true),
    PeerCase(
      "NSPredicate", "comparison/in", "color IN {'Gold', 'Space Black'}",
      #"color in (Gold, "Space Black")"#, .true),
    PeerCase(
      "NSPredicate", "comparison/and_symbols", "price > 500 && color == 'Space Black'",
      #"price > 500 && color == "Space Black""#, .true),
    PeerCase(
      "NSPredicate", "comparison/or_symbols", "price > 5000 || stock == 7",
      "price > 5000 || stock == 7", .true),
    PeerCase("NSPredicate", "comparison/not_symbol", "!(price > 5000)", "!(price > 5000)", .true),
    PeerCase("NSPredicate", "comparison/ne_symbol", "color <> 'Gold'", "color != Gold", .true),
    PeerCase("NSPredicate", "comparison/ge_symbol", "price => 999", "price >= 999", .true),
    PeerCase(
      "NSPredicate", "aggregate/contains_element", "tags CONTAINS '5G'", "tags contains 5G", .true),
    PeerCase("NSPredicate", "aggregate/any", "ANY tags == '5G'", "any tags == 5G", .true),
    PeerCase("NSPredicate", "aggregate/all", "ALL scores >= 4", "all scores >= 4", .true),
    PeerCase("NSPredicate", "aggregate/none", "NONE scores > 5", "none scores > 5", .true),
    PeerCase("NSPredicate", "aggregate/count", "items.@count == 2", "count(items) == 2", .true),
    PeerCase(
      "NSPredicate", "aggregate/sum", "items.@sum.price == 68", "sum(items.price) == 68", .true),
    PeerCase("NSPredicate", "aggregate/avg", "scores.@avg == 4.5", "mean(scores) == 4.5", .true),
    PeerCase(
      "NSPredicate", "aggregate/max", "items.@max.price == 49", "max(items.price) == 49", .true),
    PeerCase(
      "NSPredicate", "aggregate/min", "items.@min.price == 19", "min(items.price) == 19", .true),
    PeerCase(
      "NSPredicate", "aggregate/subquery", "SUBQUERY(items, $i, $i.price > 20).@count == 1",
      "count(items where price > 20) == 1", .true),
    PeerCase("NSPredicate", "aggregate/first", "tags[FIRST] == '5G'", "tags[0] == 5G", .true),
    PeerCase("NSPredicate", "aggregate/last", "tags[LAST] == 'eSIM'", "tags[-1] == eSIM", .true),
    PeerCase("NSPredicate", "aggregate/size", "tags[SIZE] == 2", "len(tags) == 2", .true),
    PeerCase("NSPredicate", "basic/truepredicate", "TRUEPREDICATE", "true", .true),
    PeerCase("NSPredicate", "basic/falsepredicate", "FALSEPREDICATE", "false", .false),
    PeerCase(
      "NSPredicate", "null/eq_nil", "updated == nil", "updated == nil", .true,
      .design(
        .unknown,
        "SQL's three-valued `==`: a comparison with null is unknown, and the checker warns (FLT313) and points to `is null` / `is not null`, which give the peer's answer"
      )),
    PeerCase(
      "NSPredicate", "null/ne_nil", "name != nil", "name != nil", .true,
      .design(
        .unknown,
        "SQL's three-valued `==`: a comparison with null is unknown, and the checker warns (FLT313) and points to `is null` / `is not null`, which give the peer's answer"
      )),
    PeerCase("NSPredicate", "arithmetic/plus", "price + 1 == 1000", "price + 1 == 1000", .true),
    PeerCase(
      "NSPredicate", "arithmetic/power", "2 ** 10 == 1024", "2 ** 10 == 1024", .true,
      .failing("no power operator (`**`)")),
    PeerCase("NSPredicate", "keypath/nested", "camera.mp == 48", "camera.mp == 48", .true),
    PeerCase("NSPredicate", "strings/in_substring", "'Pro' IN name", "name contains Pro", .true),
    PeerCase(
      "NSPredicate", "comparison/date", "released > CAST('2022-01-01', 'NSDate')",
      "released > 2022-01-01", .true),
    PeerCase("NSPredicate", "comparison/key_vs_key", "price > stock", "price > `stock`", .true),
  ]

  /// flt's answer to `filter` on record `id`, or nil when the checker rejects it: asked of a
  /// loaded table (the column engine) and of the file read as the one-shot command reads it,
  /// record by record and by column, which must agree. A test is true where the record
  /// matches it, false where it matches `not (...)`, else unknown.
  static func answer(_ filter: String, record id: Int, table: ColumnTable, path: String) -> Truth? {
    let (yes, no) = ("id == \(id) and (\(filter))", "id == \(id) and not (\(filter))")
    func truth(_ matches: (String) -> Int?) -> Truth? {
      guard let yes = matches(yes), let no = matches(no) else { return nil }
      return yes == 1 ? .true : no == 1 ? .false : .unknown
    }
    let loaded = truth { query in
      (try? CompiledFilter(query, for: table.recordType))?.filter(table.rows).matches.count
    }
    for byColumn in [false, true] {
      let read = truth { query in
        let outcome = QueryingByColumnTests.run(
          query, path, ReadOptions(), blockSize: 1 << 16, sample: 1_000, byColumn: byColumn)
        return outcome.error == nil ? outcome.records.count : nil
      }
      #expect(read == loaded, "\(filter): read \(byColumn ? "by column" : "by record")")
    }
    return loaded
  }

  @Test func eachCaseAnswersAsItsVerdictSays() throws {
    let path = try DataFiles.write(Self.records, "peers.jsonl")
    let table = try LoadedRecords(reading: DataReader(path: path, format: nil)).table
    for peerCase in Self.cases {
      let got = Self.answer(peerCase.filter, record: peerCase.record, table: table, path: path)
      let what = "\(peerCase.peer) \(peerCase.source): \(peerCase.filter)"
      switch peerCase.verdict {
      case .same:
        #expect(got == peerCase.answer, "\(what) gives \(String(describing: got))")
      case .design(let answer, _):
        #expect(got == answer, "\(what) gives \(String(describing: got))")
        #expect(answer != peerCase.answer, "\(what): the peer answers so too")
      case .failing:
        // Fixed: make it `.same`.
        #expect(got != peerCase.answer, "\(what) now answers as \(peerCase.peer) does")
      }
    }
  }

  /// A JSON number is a double, as DuckDB reads it: exact only once converted.
  @Test func aJSONNumberIsADoubleUntilConverted() throws {
    let path = try DataFiles.write(Self.records, "peers-doubles.jsonl")
    let table = try LoadedRecords(reading: DataReader(path: path, format: nil)).table
    #expect(Self.answer("cost - 0.55 == 2.00", record: 1, table: table, path: path) == .false)
    #expect(Self.answer("2.55 - 0.55 == 2.00", record: 1, table: table, path: path) == .true)
    #expect(
      Self.answer("cost == 2.55 and cost * 2 == 5.1", record: 1, table: table, path: path) == .true)
  }

  /// What the issue asks: at most four cases fail.
  @Test func atMostFourFail() {
    let failing = Self.cases.filter(\.isFailing)
    #expect(failing.count <= 4, "\(failing.map(\.testDescription))")
    #expect(Set(Self.cases.map(\.peer)).count == 6)
  }
}
