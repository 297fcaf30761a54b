import FilterDatabase
import FilterSQL
import Foundation
import Testing

/// `flt --table NAME QUERY DATABASE`, `flt sql` and `--format sql`, run as a built binary.
@Suite struct DatabaseCommandTests {
  func flt(_ arguments: [String]) throws -> CLITests.Run { try CLITests.flt(arguments) }

  /// examples/phones.json moved into a new SQLite database with `--format sql`.
  func phonesDatabase() throws -> String {
    let script = try flt(
      [
        "--format", "sql", "--dialect", "sqlite", "--table", "phones", "true",
        "examples/phones.json",
      ])
    #expect(script.status == 0 && script.stderr.isEmpty)
    #expect(script.stdout.hasPrefix("BEGIN;\nCREATE TEMP TABLE temp.\"flt existed phones\""))
    #expect(script.stdout.contains("\nCREATE TABLE \"phones\" (\"model\" TEXT, \"price\" INTEGER"))
    let path = try CLITests.temporaryFile([], name: "shop.db").path
    try FileManager.default.removeItem(atPath: path)
    try SQLiteDatabase(path: path, writable: true).executeScript(script.stdout)
    return path
  }

  /// `-o` onto a SQLite database (the table's own, or any other) is refused before anything is
  /// written: rows or a SQL script over it replaced the database whole.
  @Test func aDatabaseIsNeverWrittenOver() throws {
    let database = try phonesDatabase()
    let before = try Data(contentsOf: URL(fileURLWithPath: database))
    for arguments in [
      ["--table", "phones", "price > 1000", database, "-o", database],
      [
        "-f", "sql", "--dialect", "sqlite", "--table", "t", "true", "examples/phones.json", "-o",
        database,
      ],
      ["-f", "csv", "price > 1000", "examples/phones.json", "-o", database],
    ] {
      let run = try flt(arguments)
      #expect(run.status == 2, "\(arguments)")
      #expect(
        run.stderr == """
          error: will not write over \(database): it is a SQLite database
          help: write to another file; to add rows to the database, write a script and run it: \
          flt -f sql ... | sqlite3 \(database)

          """, "\(arguments)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)
    }
    // A file that only starts like one is written as any other file.
    let text = try CLITests.temporaryFile(Array("SQLite format 3 is a header".utf8), name: "t.txt")
    #expect(
      try flt(["-f", "csv", "price > 1000", "examples/phones.json", "-o", text.path]).status == 0)
  }

  /// `--schema` of a database: every table's columns (as sqlite3's `.schema`), or the one
  /// `--table` names; it blamed the file's extension.
  @Test func theSchemaOfADatabase() throws {
    let database = try phonesDatabase()
    let all = try flt(["--schema", database])
    #expect(all.status == 0, "\(all.stderr)")
    #expect(all.stdout.hasPrefix("phones:\n  model         string?\n  price         int?\n"))
    #expect(all.stdout.contains("  camera        record?\n    megapixels  int\n"))
    let one = try flt(["--schema", "--table", "phones", database])
    #expect(one.stdout.hasPrefix("model         string?\nprice         int?\n"))
    let missing = try flt(["--schema", "--table", "nope", database])
    #expect(missing.status == 2)
    #expect(
      missing.stderr
        == "error: the database \(database) has no table nope\nhelp: its tables: phones\n")
  }

  /// `flt sql --inline` writes the values into the statement as literals that read back as
  /// the same values: the statement alone gives the rows the query gives.
  @Test func inlinedStatementsGiveTheSameRows() throws {
    let database = try phonesDatabase()
    let connection = try SQLiteDatabase(path: database)
    for query in [
      #"color in (Starlight, "Space Black") and price > 500 order by price limit 3"#,
      // A placeholder's spelling inside a value is the value's.
      #"model != "it's \\ a ?1 test" and price > 100"#, "price between 799 and 1299.5",
    ] {
      let sql = try flt(["sql", "--inline", "--table", "phones", query, database])
      #expect(sql.status == 0 && !sql.stdout.contains("-- then flt"), "\(sql.stdout)")
      let statement = String(sql.stdout.prefix { $0 != "\n" }.dropLast())
      let rows = try connection.rows(SQLStatement(statement))
      let printed = try flt(["--table", "phones", "-f", "jsonl", query, database])
      #expect(rows.count == printed.stdout.split(separator: "\n").count, "\(query)")
    }
    let json = try flt([
      "sql", "--inline", "-f", "json", "--table", "phones", "price > 1", database,
    ])
    #expect(
      json.stdout.contains(#"(\"price\" > 1)"#) && json.stdout.contains(#""parameters": []"#))
  }

  /// Names from the data or the user (a table's, a field's) reach the terminal with their
  /// control characters escaped: no escape sequence in a message or `--schema`.
  @Test func controlCharactersNeverReachTheTerminal() throws {
    let database = try phonesDatabase()
    let table = try flt(["--table", "x\u{1B}[31m", "-c", "true", database])
    #expect(table.status == 2 && !table.stderr.contains("\u{1B}"))
    #expect(table.stderr.hasPrefix(#"error: the database \#(database) has no table x\u{1B}[31m"#))
    let keys = try CLITests.temporaryFile(
      Array(#"{"k\u001b[1mey": "v\u001b[2J", "a": "v\u001b[2J"}"#.utf8) + [0x0A]
        + Array(#"{"k\u001b[1mey": "v\u001b[2J", "a": "w"}"#.utf8) + [0x0A]
        + Array(#"{"k\u001b[1mey": "v\u001b[2J", "a": "w"}"#.utf8), name: "esc.jsonl")
    let schema = try flt(["--schema", keys.path])
    #expect(schema.status == 0 && !schema.stdout.contains("\u{1B}"), "\(schema.stdout)")
    #expect(schema.stdout.hasPrefix("k\u{FFFD}[1mey  string"))
  }

  /// Options that say how to read a file's values are refused for a table, not ignored.
  @Test func fileReadingOptionsAreRefusedForATable() throws {
    let database = try phonesDatabase()
    let typed = try flt(["--table", "phones", "-t", "price=double", "-c", "price > 1", database])
    #expect(typed.status == 2)
    #expect(
      typed.stderr == """
        error: --type price reads a file's values; a table's columns have the types the database gives them
        help: convert in the filter instead: double(price)

        """)
    let nulls = try flt(["--table", "phones", "--null", "-", "-c", "true", database])
    #expect(nulls.status == 2 && nulls.stderr.hasPrefix("error: --null - reads a file's values"))
  }

  @Test func theSameQueriesGiveTheSameRecordsInTheDatabase() throws {
    let database = try phonesDatabase()
    let select = ["-f", "csv", "-s", "model,price,color,diskSpace,released,tags,inStock"]
    for query in [
      #"color in (Starlight, "Space Black") and diskSpace >= 256"#,
      #"tags contains "5G" order by price desc, model limit 7 offset 2"#,
      "camera.megapixels >= 48 and camera.zoom is null",
      #"model like "iPhone 1?*" and price between 500 and 1000 order by released nulls last"#,
      #"model ==[c] "IPHONE 14" or price > 1500"#,
      "released >= 2022-09-01 and discontinued is null and inStock order by screenSize desc",
    ] {
      let file = try flt(select + [query, "examples/phones.json"])
      let table = try flt(select + ["--table", "phones", query, database])
      #expect(
        file.status == 0 && table.status == 0 && table.stderr.isEmpty, "\(query): \(table.stderr)")
      #expect(file.stdout == table.stdout, "\(query)")
      #expect(file.stdout.split(separator: "\n").count > 1, "\(query) matches nothing")
    }
    let count = try flt(["--count", "--table", "phones", DataCommandTests.design, database])
    #expect(count.stdout == "13\n")
    let explain = try flt([
      "--explain", "--table", "phones", #"price < 900 and year(released) == 2022"#, database,
    ])
    #expect(explain.stdout.hasPrefix(#"in sqlite: SELECT "model""#))
    #expect(explain.stdout.contains(#"WHERE ("price" < ?1) ORDER BY "rowid"  -- 900"#))
    #expect(explain.stdout.contains(#"in flt: year(released) == 2022"#))
  }

  /// `--facets` and `--stats` on a table are computed by the database where SQL can, as in
  /// a session: the same rows as the file's, and `--explain` shows the `GROUP BY`s.
  @Test func facetsAndStatsOfATableRunInTheDatabase() throws {
    let database = try phonesDatabase()
    for arguments in [
      ["--facets", "color,diskSpace", #"price < 1000 and color != Gold"#],
      ["--stats", "count(), sum(price), min(diskSpace) by color", "price < 1000"],
    ] {
      let file = try flt(arguments + ["examples/phones.json"])
      let table = try flt(arguments + ["--table", "phones", database])
      #expect(file.status == 0 && table.status == 0 && table.stderr.isEmpty, "\(table.stderr)")
      #expect(file.stdout == table.stdout, "\(arguments)")
      let explain = try flt(arguments + ["--explain", "--table", "phones", database])
      #expect(explain.stdout.hasPrefix(#"in sqlite: SELECT "color", "#), "\(explain.stdout)")
      #expect(explain.stdout.contains("GROUP BY 1"), "\(explain.stdout)")
    }
  }

  /// A table and a file run through the one scan: a count with a page, a first match,
  /// dotted `--select` and the exit status give the same answers (a table's count ignored
  /// `limit`, and its `--select` took top-level columns only).
  @Test func aTableAndAFileAnswerAlike() throws {
    let database = try phonesDatabase()
    for options in [
      ["-c", "price > 700 limit 3 offset 2"],
      ["-c", "price > 700 offset 100"],
      ["-c", "price > 700 and year(released) == 2022 limit 4"],
      ["-f", "jsonl", "-s", "model,camera.megapixels", "camera.zoom is null limit 3"],
      ["-q", "-e", "price > 100000"],
      ["-f", "csv", "price > 700 order by price desc, model limit 2"],
      ["-f", "csv", "-s", "model, price * 2 as doubled", "price > 1500 limit 3"],
    ] {
      let file = try flt(options + ["examples/phones.json"])
      let table = try flt(options + ["--table", "phones", database])
      #expect(file.status == table.status && table.stderr.isEmpty, "\(options): \(table.stderr)")
      #expect(file.stdout == table.stdout, "\(options)")
    }
    #expect(
      try flt(["-c", "price > 700 limit 3 offset 2", "--table", "phones", database]).stdout == "3\n"
    )
    #expect(try flt(["-q", "-e", "price > 100000", "--table", "phones", database]).status == 1)
  }

  @Test func mistakesSayWhatToDo() throws {
    let database = try phonesDatabase()
    let noTable = try flt(["price > 1", database])
    #expect(noTable.status == 2)
    #expect(
      noTable.stderr.contains(
        "is a database: say which table to query with --table NAME\nhelp: its tables: phones"))
    let wrongTable = try flt(["--table", "phone", "price > 1", database])
    #expect(
      wrongTable.status == 2
        && wrongTable.stderr.contains("has no table phone\nhelp: its tables: phones"))
    let field = try flt(["--table", "phones", "pric > 1", database])
    #expect(field.status == 2 && field.stderr.contains("did you mean 'price'?"))
    let postgres = try flt(["--table", "t", "x > 1", "postgresql://me@127.0.0.1:1/db"])
    #expect(
      postgres.status == 2
        && postgres.stderr.contains("error: cannot connect to PostgreSQL at 127.0.0.1:1"))
    let ipv6 = try flt(["--table", "t", "x > 1", "postgresql://me@[::1]:1/db"])
    #expect(
      ipv6.status == 2 && ipv6.stderr.contains("error: cannot connect to PostgreSQL at [::1]:1:"))
    let tls = try flt(["--table", "t", "x > 1", "postgresql://me@h/db?sslmode=verify-fll"])
    #expect(
      tls.status == 2 && tls.stderr.contains("sslmode=verify-fll is not one of its values")
        && tls.stderr.contains("verify-full"))
    let dialect = try flt(["--format", "sql", "true", "examples/phones.json"])
    #expect(dialect.status == 2 && dialect.stderr.contains("--format sql needs --dialect"))
    let missing = try flt(["--table", "t", "x > 1", "/nonexistent/shop.db"])
    #expect(missing.status == 2 && missing.stderr.contains("cannot open the SQLite database"))
  }

  @Test func collateCDeclaresTheTextColumns() throws {
    let script = try flt([
      "-f", "sql", "--dialect", "postgresql", "--collate-c", "price > 1500", "examples/phones.json",
    ])
    #expect(script.status == 0)
    #expect(script.stdout.contains(#""model" text COLLATE "C", "price" bigint,"#))
    #expect(script.stdout.contains(#""color" text COLLATE "C", "camera" jsonb"#))
    #expect(!script.stdout.contains(#"bigint COLLATE"#))
    let plain = try flt(["-f", "sql", "--dialect", "postgresql", "true", "examples/phones.json"])
    #expect(plain.status == 0 && !plain.stdout.contains("COLLATE"))
    let sqlite = try flt([
      "-f", "sql", "--dialect", "sqlite", "--collate-c", "true", "examples/phones.json",
    ])
    #expect(
      sqlite.status == 2
        && sqlite.stderr.contains("use it with -f sql --dialect postgresql")
        && sqlite.stdout.isEmpty)
  }

  @Test func sqlPrintsTheStatement() throws {
    let json = try flt([
      "sql", "--dialect", "postgresql", "--format", "json", "-p", "top=1000",
      #"color in (Starlight, Gold) and price < $top and year(released) == 2022"#,
      "examples/phones.json",
    ])
    #expect(json.status == 0)
    #expect(
      json.stdout
        == #"{"sql": "SELECT \"model\", \"price\", \"screenSize\", \"processor\", \"memory\", \"diskSpace\", \"color\", \"camera\", \"tags\", \"released\", \"inStock\", \"discontinued\" FROM \"phones\" WHERE (\"color\" IN ($1::text, $2::text)) AND (\"price\" < $3::bigint)", "parameters": ["Starlight", "Gold", 1000], "residual": "year(released) == 2022"}"#
        + "\n")
    let text = try flt([
      "sql", "--table", "phones", "price < 900 order by price limit 2", try phonesDatabase(),
    ])
    #expect(
      text.stdout
        == #"SELECT "model", "price", "screenSize", "processor", "memory", "diskSpace", "color", "camera", "tags", "released", "inStock", "discontinued" FROM "phones" WHERE ("price" < ?1) ORDER BY "price" ASC NULLS LAST, "rowid" LIMIT ?2;"#
        + "\n-- parameters: ?1 = 900, ?2 = 2\n")
    let bad = try flt(["sql", "--dialect", "oracle", "true", "examples/phones.json"])
    #expect(
      bad.status == 2 && bad.stderr.contains("unknown dialect 'oracle'; use postgresql or sqlite"))
  }
}

extension DatabaseCommandTests {
  /// R's `write.csv` leaves the row numbers' column unnamed: it is named `column1` (as
  /// `--no-header` names columns), so the README's way into a database works; and `-f sql`
  /// takes `--select`, computed columns too. The script loads into SQLite.
  @Test func anUnnamedColumnAndASelectionIntoSQL() throws {
    let path = try CLITests.temporaryFile(
      Array("\"\",\"h\",\"ab\"\n\"1\",3,10\n\"2\",1,4\n".utf8), name: "batting.csv"
    ).path
    let schema = try flt(["--schema", path])
    #expect(schema.stdout.hasPrefix("column1  int\nh        int\nab       int\n"))
    let script = try flt([
      "-f", "sql", "--dialect", "sqlite", "--table", "b", "-s", "column1, h / ab as avg", "true",
      path,
    ])
    #expect(script.status == 0, "\(script.stderr)")
    #expect(script.stdout.contains(#"CREATE TABLE "b" ("column1" INTEGER, "avg" REAL)"#))
    let database = try CLITests.temporaryFile([], name: "batting.db").path
    try FileManager.default.removeItem(atPath: database)
    try SQLiteDatabase(path: database, writable: true).executeScript(script.stdout)
    let run = try flt(["-f", "jsonl", "--table", "b", "avg > 0.26", database])
    #expect(run.stdout == #"{"column1":1,"avg":0.3}"# + "\n", "\(run.stderr)")
  }

  /// Integers beyond what a double holds keep their digits on the way out (issue 51.8): in
  /// PostgreSQL's numeric; in SQLite as integers where they fit 64 bits, else the nearest real,
  /// said in a warning; in Parquet as text, said too; in CSV as written.
  @Test func wideIntegersKeepTheirDigitsOrSaySo() throws {
    let path = try CLITests.temporaryFile(
      Array(
        "{\"a\":1}\n{\"a\":2.5}\n{\"a\":9007199254740993}\n{\"a\":12345678901234567890}\n"
          .utf8),
      name: "wide.jsonl"
    ).path
    let postgres = try flt(["-f", "sql", "--dialect", "postgresql", "true", path])
    #expect(postgres.stdout.contains(#"("a" numeric"#) && postgres.stderr.isEmpty)
    #expect(postgres.stdout.contains("('9007199254740993')"))
    #expect(postgres.stdout.contains("('12345678901234567890')"))
    let sqlite = try flt(["-f", "sql", "--dialect", "sqlite", "--table", "w", "true", path])
    #expect(sqlite.stdout.contains("(9007199254740993)"), "\(sqlite.stdout)")
    #expect(sqlite.stdout.contains("(1.2345678901234567e+19)"))
    #expect(
      sqlite.stderr
        == "warning: 1 exact decimal has more digits than SQLite's REAL keeps and was written as "
        + "the nearest real (PostgreSQL's numeric keeps them: --dialect postgresql)\n"
    )
    let database = try CLITests.temporaryFile([], name: "wide.db").path
    try FileManager.default.removeItem(atPath: database)
    try SQLiteDatabase(path: database, writable: true).executeScript(sqlite.stdout)
    let exact = try flt(["-c", "--table", "w", "a == 9007199254740993", database])
    #expect(exact.stdout == "1\n", "\(exact.stderr)")
    let csv = try flt(["-f", "csv", "a > 2", path])
    #expect(csv.stdout == "a\n2.5\n9007199254740993\n12345678901234567890\n")
    let parquet = try CLITests.temporaryFile([], name: "wide.parquet").path
    let written = try flt(["-f", "parquet", "-o", parquet, "true", path])
    #expect(
      written.stderr.contains("4 exact decimals were written to Parquet as text, digits kept")
    )
    let back = try flt(["-f", "csv", "true", parquet])
    #expect(back.stdout == "a\n1\n2.5\n9007199254740993\n12345678901234567890\n")
  }

  /// `--stats` and `--facets` take a PostgreSQL URL as their input, as a filter does (issue
  /// 52.8: the URL was read as the filter), with the filter left out or written inside.
  @Test(.enabled(if: getenv("FLT_POSTGRES_PORT") != nil))
  func statsAndFacetsOverAPostgresURL() throws {
    let port = String(cString: getenv("FLT_POSTGRES_PORT"))
    let url = "postgresql://flt_scram:scram%20pass@127.0.0.1:\(port)/flt"
    let script = try flt([
      "-f", "sql", "--dialect", "postgresql", "--table", "phones_cli_stats", "true",
      "examples/phones.json",
    ])
    let connection = try PostgresConnection(url: url)
    try connection.executeScript("DROP TABLE IF EXISTS phones_cli_stats;" + script.stdout)
    let table = ["--table", "phones_cli_stats"]
    let inside = try flt(table + ["--stats", "count() where price >= 1000", url])
    #expect(inside.stdout == #"{"count()":52}"# + "\n", "\(inside.stderr)")
    let whole = try flt(table + ["--stats", "count()", url])
    #expect(whole.stdout == #"{"count()":111}"# + "\n", "\(whole.stderr)")
    let facets = try flt(table + ["--facets", "color", url])
    #expect(facets.stdout.hasPrefix(#"{"field":"color","value":"Midnight","count":13}"#))
    // The same answers as from the file.
    let file = try flt(["--stats", "count() where price >= 1000", "examples/phones.json"])
    #expect(file.stdout == inside.stdout)
  }
}
