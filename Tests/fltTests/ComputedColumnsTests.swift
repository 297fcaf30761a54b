import Foundation
import Testing

/// `--select` with computed and renamed columns: `-s 'model, price - 100 as cheaper'`.
@Suite struct ComputedColumnsTests {
  func flt(_ arguments: [String]) throws -> CLITests.Run { try CLITests.flt(arguments) }

  @Test func columnsAreComputedFromEachRecord() throws {
    let run = try flt([
      "-f", "csv", "-s", "model, price - 100 as cheaper, camera.megapixels * 2 as mp, price",
      "price > 1500 order by price limit 2", "examples/phones.json",
    ])
    #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
    let lines = run.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "model,cheaper,mp,price")
    // Each row's computed values agree with its price.
    for line in lines.dropFirst() {
      let cells = line.split(separator: ",").map(String.init)
      #expect(cells.count == 4 && Int(cells[1]).map { $0 + 100 } == Int(cells[3]), "\(line)")
    }
    #expect(lines.count == 3)
  }

  /// `--select` and `--count` may leave the filter out, as `--stats` and `--facets` may: a
  /// first argument that names a file is data, and every record is taken (the file's name was
  /// read as the filter, and standard input as the data).
  @Test func theFilterMayBeLeftOut() throws {
    let selected = try flt(["-f", "csv", "-s", "model", "examples/phones.json"])
    #expect(selected.status == 0, "\(selected.stderr)")
    let all = try flt(["-f", "csv", "-s", "model", "true", "examples/phones.json"])
    #expect(selected.stdout == all.stdout && selected.stdout.split(separator: "\n").count > 100)
    let counted = try flt(["-c", "examples/phones.json"])
    #expect(counted.status == 0 && counted.stdout == "111\n", "\(counted.stderr)")
    // A filter still comes first where one is written.
    #expect(try flt(["-c", "price > 1000", "examples/phones.json"]).stdout != "111\n")
  }

  /// JSON output nests nothing new: a column is a value, typed (a number stays a number).
  @Test func jsonHoldsTheValuesTyped() throws {
    let data = try CLITests.temporaryFile(
      Array("{\"a\": 7, \"b\": 2}\n{\"a\": 1, \"b\": 0}\n".utf8), name: "ab.jsonl")
    let run = try flt([
      "-f", "jsonl", "-s", "a, a / b as ratio, a * 1.5 as more, upper(\"x\") as c", "true",
      data.path,
    ])
    #expect(
      run.stdout
        == "{\"a\":7,\"ratio\":3.5,\"more\":10.5,\"c\":\"X\"}\n{\"a\":1,\"ratio\":null,\"more\":1.5,\"c\":\"X\"}\n"
    )
    // The division by zero is null, and counted as the query's faults are.
    #expect(run.status == 0 && run.stderr.contains("division"))
  }

  @Test func namesTheDataHasAreFieldsWhateverTheyLookLike() throws {
    let data = try CLITests.temporaryFile(
      Array("Order ID,first-name\n1,Ann\n2,Bob\n".utf8), name: "orders.csv")
    let run = try flt(["-f", "csv", "-s", "first-name,Order ID", "true", data.path])
    #expect(run.status == 0 && run.stdout == "first-name,Order ID\nAnn,1\nBob,2\n")
  }

  @Test func mistakesArePlacedInTheSelection() throws {
    let unknown = try flt(["-s", "pric * 2 as double", "true", "examples/phones.json"])
    #expect(unknown.status == 2 && unknown.stderr.contains("--> --select:1:1"))
    #expect(unknown.stderr.contains("did you mean 'price'?"))
    let twice = try flt(["-s", "price as a, model as a", "true", "examples/phones.json"])
    #expect(twice.status == 2 && twice.stderr.contains("two columns are called 'a'"))
    let field = try flt(["-s", "modl", "true", "examples/phones.json"])
    #expect(field.status == 2 && field.stderr.contains("did you mean 'model'?"))
    let syntax = try flt(["-s", "price * (2", "true", "examples/phones.json"])
    #expect(syntax.status == 2 && syntax.stderr.contains("--> --select:1:"))
  }

  @Test func filesWithOtherFieldsAreComputedOneAtATime() throws {
    let first = try CLITests.temporaryFile(Array("{\"a\": 1, \"b\": 2}\n".utf8), name: "p1.jsonl")
    let second = try CLITests.temporaryFile(Array("{\"b\": 3, \"a\": 4}\n".utf8), name: "p2.jsonl")
    let run = try flt(["-s", "a + b as s", "true", first.path, second.path])
    #expect(
      run.status == 2 && run.stderr.contains("compute columns of files with different fields"))
    let same = try flt(["-f", "csv", "-s", "a + b as s", "true", first.path, first.path])
    #expect(same.stdout == "s\n3\n3\n")
  }
}
