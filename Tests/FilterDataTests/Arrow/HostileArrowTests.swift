import FilterDSL
import Foundation
import TestSupport
import Testing

@testable import FilterData

/// Arrow data cut short, changed byte by byte, or claiming more than it holds: every read
/// gives records or an error naming the file, never a crash, and no claim reserves memory the
/// data does not account for.
@Suite struct HostileArrowTests {
  static let folder = ArrowReaderTests.folder

  /// The rows `path` reads, or the error (which must name the file).
  static func read(_ path: String) -> Result<Int, DataError> {
    do {
      let source = try FileSource.open(path)
      var rows = 0
      try source.read { block in
        guard case .batches(let batches) = block else { return false }
        for batch in batches { rows += batch.table.rows.count }
        return true
      }
      return .success(rows)
    } catch let error as DataError {
      #expect(error.description.contains(path), "\(error)")
      return .failure(error)
    } catch {
      Issue.record("an error that is not a DataError: \(error)")
      return .success(-1)
    }
  }

  /// `bytes` written to a file called `name`, its path.
  static func file(_ bytes: [UInt8], _ name: String) throws -> String {
    try TemporaryFiles.write(bytes, name).path
  }

  static func bytes(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name)")))
  }

  /// Files and streams cut anywhere read what they hold whole, or are errors.
  @Test(arguments: ["phones-lz4.arrow", "nested.arrows", "phones-dictionary.arrow"])
  func cutData(name: String) throws {
    let whole = try Self.bytes(name)
    let ext = name.hasSuffix(".arrows") ? "arrows" : "arrow"
    var errors = 0
    // (About 150 places, each message's header and body among them.)
    for length in stride(from: 0, to: whole.count, by: whole.count / 150 + 1) {
      let path = try Self.file(Array(whole[..<length]), "cut-\(length).\(ext)")
      switch Self.read(path) {
      case .success(let rows): #expect(rows >= 0 && rows < 300, "\(name) cut at \(length)")
      case .failure: errors += 1
      }
      try? FileManager.default.removeItem(atPath: path)
    }
    // A file cut anywhere has lost its footer; a stream cut within a message says so.
    #expect(errors > 0)
  }

  /// Files and streams with bytes changed read as records or are errors, never a crash.
  @Test(arguments: [
    "rare-types.arrow", "phones-zstd.arrow", "nested.arrows", "phones-deltas.arrows",
    "nested-views.arrow",
  ])
  func changedBytes(name: String) throws {
    let whole = try Self.bytes(name)
    let ext = name.hasSuffix(".arrows") ? "arrows" : "arrow"
    var generator = SplitMix64(seed: UInt64(whole.count))
    for round in 0..<200 {
      var changed = whole
      for _ in 0..<(1 + round % 4) {
        let at = Int(generator.next() % UInt64(changed.count))
        changed[at] =
          [0x00, 0xFF, 0x7F, 0x80, UInt8(truncatingIfNeeded: generator.next())][round % 5]
      }
      let path = try Self.file(changed, "changed.\(ext)")
      _ = Self.read(path)
    }
  }

  /// A column of 2^31 - 1 nulls (no bytes): counted from the footer at once, read a batch at
  /// a time; a list of 2^31 - 2 nulls is an error before anything is made of it.
  @Test func claimsBeyondTheBytes() throws {
    let nulls = "\(Self.folder)/many-nulls.arrow"
    #expect(try ParquetReaderTests.count(nulls, "true") == 2_147_483_647)
    let firstRows = try Scan(file: nulls, query: "x is null limit 3").records()
    #expect(firstRows.count == 3)
    guard case .failure(let error) = Self.read("\(Self.folder)/list-of-nulls.arrow") else {
      Issue.record("a list of 2^31 - 2 nulls read")
      return
    }
    #expect(error.description.contains("column 'l' claims 2147483646 values"), "\(error)")
  }

  /// Structs nested past 64 levels are an error, not a recursion that ends the process;
  /// 60 levels read; a union is an error naming its column.
  @Test func nestingAndTypesFltDoesNotRead() throws {
    guard case .failure(let deep) = Self.read("\(Self.folder)/too-deep.arrows") else {
      Issue.record("70 levels read")
      return
    }
    #expect(deep.description.contains("nested 70 levels deep, more than the 64 flt reads"))
    #expect(try Self.read("\(Self.folder)/deep.arrow").get() == 2)
    guard case .failure(let union) = Self.read("\(Self.folder)/union.arrow") else {
      Issue.record("a union read")
      return
    }
    #expect(union.description.contains("column 'u' is of Arrow's union type"))
  }

  /// A record batch of more rows than are handed over at once: its structs and fixed-size
  /// lists past the first 65,536 rows read as the others (they were read from the batch's
  /// first row again, past their values: a trap).
  @Test func rowsPastTheFirstBatchOfABigOne() throws {
    let path = "\(Self.folder)/big-batch.arrow"
    // (On the right of `==`, a field is named in backquotes.)
    let rule =
      "s.a == `id` % 100 and f[0] == `id` % 5 and f[1] == (`id` + 1) % 5"
      + " and (s.b == `id` % 3 or id % 7 == 0 and s.b is null)"
    #expect(try ParquetReaderTests.count(path, rule) == 70_000)
    #expect(try ParquetReaderTests.count(path, "id >= 65536 and s.a == `id` % 100") == 4_464)
    // And fetched after a sort (late decoding), past the first rows.
    let top = try Scan(file: path, query: "true order by id desc limit 2").records()
    #expect(
      top.map { $0.values.description } == [
        #"[69999, {99, 0}, (4, 0)]"#, #"[69998, {98, 2}, (3, 4)]"#,
      ])
  }

  /// A file of no columns whose batches claim rows (found by the fuzzer: its count from the
  /// footer said 5, reading gave none) is an error, not records dropped without a word.
  @Test func noColumnsIsAnError() throws {
    guard case .failure(let error) = Self.read("\(Self.folder)/no-columns.arrow") else {
      Issue.record("a file of no columns read")
      return
    }
    #expect(error.description.contains("has no columns"), "\(error)")
  }

  /// A buffer that would take the process past the memory limit decompressed is refused
  /// before it is.
  @Test func compressedBuffersStopAtTheMemoryLimit() throws {
    let source = try ArrowSource(path: "\(Self.folder)/phones-zstd.arrow")
    source.limitMemory(to: (ProcessMemory.resident ?? 0) + 100)
    #expect(throws: DataError.self) {
      try source.read { _ in true }
    }
  }

  /// The elements of a range of lists are refused before they are made when they would take
  /// the process past the memory limit (a few bytes of booleans or nulls make many values).
  @Test func listElementsStopAtTheMemoryLimit() throws {
    let source = try ArrowSource(path: "\(Self.folder)/big-batch.arrow")
    source.limitMemory(to: (ProcessMemory.resident ?? 0) + (1 << 20))
    do {
      try source.read { _ in true }
      Issue.record("131,072 elements made under a limit of 1 MB more")
    } catch let error as DataError {
      // (The elements take 3 MB; the buffers, 280 KB at most: suites beside this one move the
      // process's memory, so a buffer may be the one refused.)
      #expect(error.description.contains("past the memory limit"), "\(error)")
    }
  }
}
