import Foundation
import TestSupport
import Testing

/// Arrow files and streams through the command: by extension, by their first bytes on
/// standard input, with `-i`, in `flt sql`, in the help; errors name the file.
@Suite struct ArrowCommandTests {
  static let folder = "Tests/Fixtures/arrow"

  func flt(_ arguments: [String], input: [UInt8] = []) throws -> CLITests.Run {
    try CLITests.flt(arguments, input: input)
  }

  func bytes(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: CLITests.root.appendingPathComponent("\(Self.folder)/\(name)")))
  }

  @Test func filesAndStreamsOnStandardInput() throws {
    let wanted = try flt(["-c", "price < 600", "Tests/Fixtures/parquet/phones-plain.parquet"])
    #expect(wanted.status == 0)
    for name in ["phones.arrow", "phones-lz4.arrow", "phones.arrows", "phones.feather"] {
      let named = try flt(["-c", "price < 600", "\(Self.folder)/\(name)"])
      #expect(named.stdout == wanted.stdout, "\(name): \(named.stderr)")
      // On standard input, known by its first bytes (a file's footer passed over).
      let piped = try flt(["-c", "price < 600"], input: bytes(name))
      #expect(piped.stdout == wanted.stdout, "\(name) piped: \(piped.stderr)")
    }
    // The stream format of Arrow before 0.15 has no marker to know it by: -i says.
    let legacy = try bytes("phones-legacy.arrows")
    #expect(try flt(["-i", "arrows", "-c", "price < 600"], input: legacy).stdout == wanted.stdout)
    #expect(try flt(["-i", "arrow", "-c", "price < 600"], input: legacy).stdout == wanted.stdout)
  }

  @Test func sqlAndOutput() throws {
    let sql = try flt(["sql", "price < 500", "\(Self.folder)/phones.arrow"])
    #expect(sql.status == 0)
    #expect(sql.stdout.contains(#"FROM "phones" WHERE ("price" < $1::bigint)"#), "\(sql.stderr)")
    let csv = try flt([
      "-f", "csv", "-s", "id,model", "id < 3", "\(Self.folder)/phones-dictionary.arrow",
    ])
    #expect(csv.stdout == "id,model\n0,iPhone 12 Pro\n1,iPhone 13\n2,iPhone 14\n", "\(csv.stderr)")
    let help = try flt(["--help"])
    #expect(
      help.stdout.contains("Arrow (IPC\nfiles and Feather 2")
        || help.stdout.contains("Arrow (IPC files"))
    #expect(help.stdout.contains(".arrow, .feather, .ipc"))
  }

  @Test func errorsNameTheFileAndColumn() throws {
    let union = try flt(["true", "\(Self.folder)/union.arrow"])
    #expect(union.status == 2)
    #expect(
      union.stderr.contains("union.arrow: column 'u' is of Arrow's union type"), "\(union.stderr)")
    let cut = try CLITests.temporaryFile(
      Array(try bytes("phones.arrow").prefix(600)), name: "cut.arrow")
    let run = try flt(["-c", "true", cut.path])
    #expect(run.status == 2)
    #expect(run.stderr.contains("cut.arrow: is not an Arrow file"), "\(run.stderr)")
    // A stream cut within a message says where.
    let stream = try flt(["-c", "true"], input: Array(try bytes("phones.arrows").prefix(3000)))
    #expect(stream.status == 2)
    #expect(stream.stderr.contains("<stdin>: ends early"), "\(stream.stderr)")
  }

  /// `-f arrow -o FILE` and `-f arrows` write the matches, which flt reads back as the records
  /// it wrote; an unknown format's error lists the formats flt writes.
  @Test func writesArrow() throws {
    let folder = try TemporaryFiles.makeFolder("arrow-written")
    let query = ["-s", "model,price,released", "price < 600 order by price"]
    let wanted = try flt(["-f", "jsonl"] + query + ["examples/phones.json"])
    for format in ["arrow", "arrows"] {
      let path = folder.appendingPathComponent("cheap.\(format)").path
      let written = try flt(["-f", format, "-o", path] + query + ["examples/phones.json"])
      #expect(written.status == 0 && written.stderr.isEmpty, "\(written.stderr)")
      let back = try flt(["-f", "jsonl", "true", path])
      #expect(back.stdout == wanted.stdout, "\(format): \(back.stderr)")
    }
    let unknown = try flt(["-f", "feather2", "true", "examples/phones.json"])
    #expect(unknown.status == 2)
    #expect(unknown.stderr.contains("sql, parquet, arrow, arrows"), "\(unknown.stderr)")
    let named = try flt(["-H", "-f", "arrow", "true", "examples/phones.json"])
    #expect(named.stderr.contains("an Arrow file has no place for it"), "\(named.stderr)")
  }
}
