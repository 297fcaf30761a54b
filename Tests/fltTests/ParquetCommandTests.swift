import Foundation
import TestSupport
import Testing

/// Parquet through the command and a session, as a user meets it: the same answers as the
/// file's JSON Lines twin, its types in `--schema`, `-i parquet` for a file of another name,
/// and errors that name the file.
@Suite struct ParquetCommandTests {
  func flt(_ arguments: [String], stdin: String? = nil) throws -> CLITests.Run {
    try CLITests.flt(arguments, stdin: stdin)
  }

  static let parquet = "Tests/Fixtures/parquet/phones-snappy.parquet"
  static let twin = "Tests/Fixtures/parquet/phones-snappy.jsonl"

  @Test func queriesAnswerAsOverTheTwin() throws {
    for arguments in [
      ["-c", #"color in (Gold, Midnight) and price < 900"#],
      ["-f", "csv", "-s", "id,model,price", "screen >= 5.8 order by price desc, id limit 4"],
      ["-f", "jsonl", "-s", "id,released", "released >= 2023-06-01 and inStock"],
      ["-f", "jsonl", "-s", "id, price * 2 as double", "id < 3"],
    ] {
      let fromParquet = try flt(arguments + [Self.parquet])
      let fromTwin = try flt(arguments + [Self.twin])
      #expect(fromParquet.status == 0, "\(arguments): \(fromParquet.stderr)")
      #expect(fromParquet.stdout == fromTwin.stdout, "\(arguments)")
      #expect(!fromParquet.stdout.isEmpty)
    }
  }

  /// `flt sql` writes the statement for a Parquet file's table as for its twin's: the same
  /// columns, types and filter.
  @Test func sqlForAParquetFile() throws {
    let fromParquet = try flt([
      "sql", "--table", "phones", "price < 500 and color == Gold", Self.parquet,
    ])
    #expect(fromParquet.status == 0, "\(fromParquet.stderr)")
    #expect(fromParquet.stdout.contains(#"FROM "phones" WHERE"#))
    let fromTwin = try flt(["sql", "--table", "phones", "price < 500 and color == Gold", Self.twin])
    #expect(fromParquet.stdout == fromTwin.stdout)
  }

  @Test func schemaAndFormatOption() throws {
    let schema = try flt(["--schema", "Tests/Fixtures/parquet/types.parquet"])
    #expect(schema.stdout.contains("u64   int?\n") && schema.stdout.contains("ms    datetime?\n"))
    let bytes = Array(try Data(contentsOf: CLITests.root.appendingPathComponent(Self.parquet)))
    let copy = try CLITests.temporaryFile(bytes, name: "phones.data").path
    // A name that says nothing: the file's first bytes (`PAR1`) do.
    #expect(try flt(["-c", "price < 600", copy]).stdout == "33\n")
    #expect(try flt(["-i", "parquet", "-c", "price < 600", copy]).stdout == "33\n")
    let text = try CLITests.temporaryFile(Array("price\n3\n".utf8), name: "prices.data").path
    #expect(try flt(["-c", "true", text]).stderr.contains("has no known extension (.json, "))
  }

  @Test func errorsNameTheFile() throws {
    let brotli = try flt(["true", "Tests/Fixtures/parquet/brotli.parquet"])
    #expect(brotli.status == 2)
    #expect(
      brotli.stderr.contains(
        "brotli.parquet: column 'id' of row group 1 is compressed with Brotli"))
    let piped = try flt(["-i", "parquet", "-c", "true"], stdin: "PAR1")
    #expect(piped.status == 2 && piped.stderr.contains("save it to a file first"))
    // Sniffed, not read as CSV of binary cells.
    let sniffed = try flt(["-c", "true"], stdin: "PAR1\u{15}\u{0}")
    #expect(sniffed.status == 2)
    #expect(sniffed.stderr.contains("<stdin>: begins as Parquet does"), "\(sniffed.stderr)")
    let cut = try CLITests.temporaryFile(Array("PAR1 not really".utf8), name: "cut.parquet").path
    #expect(try flt(["-c", "true", cut]).stderr.contains("cut.parquet: is not a Parquet file"))
  }

  /// `-f parquet -o FILE` writes the matches as Parquet, which flt reads back as the records
  /// it wrote; `--select` writes those columns (computed ones too); a file that cannot be
  /// written as Parquet is an error and leaves no file.
  @Test func writesParquet() throws {
    let folder = try TemporaryFiles.makeFolder("written")
    let out = folder.appendingPathComponent("cheap.parquet").path
    let wrote = try flt(["-f", "parquet", "-o", out, "price < 600 order by price", Self.twin])
    #expect(wrote.status == 0 && wrote.stdout.isEmpty && wrote.stderr.isEmpty, "\(wrote.stderr)")
    let back = try flt(["-f", "jsonl", "true", out])
    let wanted = try flt(["-f", "jsonl", "price < 600 order by price", Self.parquet])
    #expect(back.stdout == wanted.stdout && !back.stdout.isEmpty)
    let selected = folder.appendingPathComponent("selected.parquet").path
    #expect(
      try flt([
        "-f", "parquet", "-o", selected, "-s", "id, model, price * 2 as double", "id < 4",
        Self.twin,
      ])
      .status == 0)
    #expect(
      try flt(["--schema", selected]).stdout == "id      int?\nmodel   string?\ndouble  int?\n")
    #expect(
      try flt(["-f", "csv", "true", selected]).stdout.hasPrefix(
        "id,model,double\n0,iPhone 12 Pro,998\n"))
    // The last -f given counts.
    let last = try flt(["-f", "parquet", "-f", "jsonl", "id < 2", Self.twin])
    let jsonl = try flt(["-f", "jsonl", "id < 2", Self.twin])
    #expect(last.status == 0 && last.stdout == jsonl.stdout && !jsonl.stdout.isEmpty)
    let withNames = try flt(["-f", "parquet", "-H", "-o", selected, "true", Self.twin])
    #expect(
      withNames.status == 2 && withNames.stderr.contains("a Parquet file has no place for it"))
  }

  @Test func aSessionLoadsIt() throws {
    let statements = """
      count price < 600
      facets color where price < 900
      released >= 2023-01-01 order by price desc, id limit 3
      """
    let fromParquet = try flt(["run", "-"], stdin: "load \"\(Self.parquet)\" as p\n" + statements)
    let fromTwin = try flt(["run", "-"], stdin: "load \"\(Self.twin)\" as p\n" + statements)
    #expect(fromParquet.status == 0, "\(fromParquet.stderr)")
    #expect(fromParquet.stdout == fromTwin.stdout)
    #expect(fromParquet.stdout.hasPrefix("33\n"))
  }
}
