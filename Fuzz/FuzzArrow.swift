// libFuzzer harness for the Arrow reader: any bytes as an Arrow file and as an Arrow stream
// (or, after "LZF", as LZ4 frames). Reading must give records or an error naming the file,
// never a crash; when a file reads, its count from the footer is the rows read, and each
// column read alone (as a query naming only it reads it) has the values it has when every
// column is read.
// Build and run with `Fuzz/run arrow`.

/// The most rows the harness reads of an input: a batch of columns of Arrow's null type has no
/// bytes, so a few bytes may rightly claim billions of rows.
let arrowFuzzRows = 100_000

/// The values of every row of `path` (only the columns `decoding` names, the others null; the
/// first ``arrowFuzzRows`` of them), or the error's text.
func arrowRows(_ path: String, decoding: Set<String>?) -> Result<[[Value]], FuzzFailure> {
  sourceRows(path, decoding: decoding, limit: arrowFuzzRows) { try ArrowSource(path: $0) }
}

public func fuzzArrow(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  // Bytes after "LZF" (seeded with the LZ4 frame fixtures): LZ4 frames give an error or
  // exactly the bytes expected.
  if size >= 3, data[0] == 0x4C, data[1] == 0x5A, data[2] == 0x46 {
    let bytes = UnsafeRawBufferPointer(start: data + 3, count: size - 3)
    for expected in [0, 7, 1000, 1 << 16] {
      if let out = try? LZ4.decompressFrames(bytes, expected: expected), out.count != expected {
        fatalError("LZ4 frames gave \(out.count) bytes where \(expected) were expected")
      }
    }
    return 0
  }
  _ = arrowRows(fuzzWrite(data, size, to: "input.arrows"), decoding: nil)
  let path = fuzzWrite(data, size, to: "input.arrow")
  guard case .success(let all) = arrowRows(path, decoding: nil),
    let source = try? ArrowSource(path: path)
  else { return 0 }
  if all.count < arrowFuzzRows,
    let counted = try? Scan(query: SourceText("true"), source: source)
      .run(into: CountSink(to: nil)).matches, counted != all.count
  {
    fatalError("a count of \(counted) rows where reading gives \(all.count)")
  }
  for (slot, name) in source.schema.names.enumerated() {
    guard case .success(let alone) = arrowRows(path, decoding: [name]) else {
      fatalError("column \(name) does not read alone, where every column reads")
    }
    let column = alone.map { $0[slot] }
    if column.map(\.description) != all.map({ $0[slot].description }) {
      fatalError("column \(name) reads otherwise alone:\n\(column)\n\(all.map { $0[slot] })")
    }
  }
  return 0
}
