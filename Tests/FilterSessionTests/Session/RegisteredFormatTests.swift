import FilterDSL
import FilterData
import Foundation
import TestSupport
import Testing

@testable import FilterSession

/// A format registered by an embedder (here pipe-separated values, `.psv`, read as CSV with
/// `|` between cells) is one a session loads like flt's own: by its extension, by `format`,
/// and offered after `load`.
@Suite struct RegisteredFormatTests {
  /// (As the README registers it.)
  static let psv = DataFormat(name: "psv", title: "pipe-separated values", extensions: ["psv"]) {
    input in
    var options = input.options
    options.delimiter = UInt8(ascii: "|")
    return try FileSource.open(input.path, format: .csv, options: options)
  }

  @Test func aSessionLoadsARegisteredFormat() throws {
    DataFormat.register(Self.psv)
    let folder = try TemporaryFiles.makeFolder("psv").path
    let shop = "model|price\nA|300\nB|900\nC|450\n"
    try Data(shop.utf8).write(to: URL(fileURLWithPath: folder + "/shop.psv"))
    try Data(shop.utf8).write(to: URL(fileURLWithPath: folder + "/shop.txt"))
    let harness = SessionHarness()
    harness.session.baseDirectory = folder
    #expect(harness.printed("load \"shop.psv\"\ncount price < 500") == "2\n")
    #expect(harness.printed("load \"shop.txt\" as t format psv\nuse t\ncount price > 400") == "2\n")
    // A Parquet file whose name says nothing loads by its first bytes.
    let parquet = URL(fileURLWithPath: SessionHarness.examples)
      .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/parquet/small.parquet")
    try Data(contentsOf: parquet).write(to: URL(fileURLWithPath: folder + "/export"))
    #expect(harness.printed("load \"export\" as e\nuse e\ncount true") == "6\n")
    #expect(
      harness.failure("load \"shop.txt\" as plain")?.rendered.contains("cannot tell the format")
        == true)
    // Unknown formats list it.
    let unknown = try #require(harness.failure("load \"shop.txt\" as u format xml"))
    #expect(unknown.rendered.contains("psv"), "\(unknown.rendered)")
    // Completion offers its files after load.
    let completer = Completer(harness.session)
    #expect(completer.complete("load \"sh").candidates == ["\"shop.psv\""])
  }
}
