import Foundation
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

  @Test func schemaAndFormatOption() throws {
    let schema = try flt(["--schema", "Tests/Fixtures/parquet/types.parquet"])
    #expect(schema.stdout.contains("u64   int?\n") && schema.stdout.contains("ms    datetime?\n"))
    let bytes = Array(try Data(contentsOf: CLITests.root.appendingPathComponent(Self.parquet)))
    let copy = try CLITests.temporaryFile(bytes, name: "phones.data").path
    #expect(try flt(["-c", "true", copy]).stderr.contains("has no known extension"))
    #expect(try flt(["-i", "parquet", "-c", "price < 600", copy]).stdout == "33\n")
  }

  @Test func errorsNameTheFile() throws {
    let brotli = try flt(["true", "Tests/Fixtures/parquet/brotli.parquet"])
    #expect(brotli.status == 2)
    #expect(
      brotli.stderr.contains(
        "brotli.parquet: column 'id' of row group 1 is compressed with Brotli"))
    let piped = try flt(["-i", "parquet", "-c", "true"], stdin: "PAR1")
    #expect(piped.status == 2 && piped.stderr.contains("save it to a file first"))
    let cut = try CLITests.temporaryFile(Array("PAR1 not really".utf8), name: "cut.parquet").path
    #expect(try flt(["-c", "true", cut]).stderr.contains("cut.parquet: is not a Parquet file"))
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
