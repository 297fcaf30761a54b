// libFuzzer harness for the Parquet reader (and writer): any bytes as a Parquet file (or, when
// they start as one, as a zstd frame; after "LZ4", as an LZ4 block). Reading it must give
// records or an error naming the file, never a crash; and when it reads, a count gives as many
// records, and each column read alone (as a query naming only it reads it) the values it has
// when every column is read; a scan whose filter the statistics test runs without a crash;
// what reads, written again by flt, reads back the same.
// Build and run with `Fuzz/run parquet`.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The values of every row `open` reads of `path` (only the columns `decoding` names, the
/// others null; the first `limit` rows), or the error's text, which must name the file.
func sourceRows(
  _ path: String, decoding: Set<String>?, limit: Int = .max,
  open: (String) throws -> any RecordSource
) -> Result<[[Value]], FuzzFailure> {
  do {
    let source = try open(path)
    source.prepare(decoding: decoding)
    var rows: [[Value]] = []
    try source.read { block in
      guard case .batches(let batches) = block else { fatalError("\(path) gave records") }
      for batch in batches {
        for row in batch.table.rows.prefix(limit - rows.count) {
          rows.append(batch.table.row(row))
        }
      }
      return rows.count < limit
    }
    return .success(rows)
  } catch let error as DataError {
    guard error.description.contains(path) else {
      fatalError("an error without the file: \(error)")
    }
    return .failure(FuzzFailure(message: error.description))
  } catch {
    fatalError("an error that is not a DataError: \(error)")
  }
}

/// The values of every row of `path` (only the columns `decoding` names, the others null), or
/// the error's text.
func parquetRows(_ path: String, decoding: Set<String>?) -> Result<[[Value]], FuzzFailure> {
  sourceRows(path, decoding: decoding) { try ParquetSource(path: $0) }
}

public func fuzzParquet(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  // Bytes that start as a zstd frame (seeded with the zstd fixtures): decompressed, they give
  // an error or exactly the bytes expected.
  if size >= 4, data[0] == 0x28, data[1] == 0xB5, data[2] == 0x2F, data[3] == 0xFD {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    for expected in [0, 7, 1000, 1 << 16] {
      if let out = try? Zstd.decompress(bytes, expected: expected), out.count != expected {
        fatalError("zstd gave \(out.count) bytes where \(expected) were expected")
      }
    }
    return 0
  }
  // Bytes after "LZ4" (seeded with the LZ4 fixtures): an LZ4 block, likewise, alone and as
  // Hadoop's frames.
  if size >= 3, data[0] == 0x4C, data[1] == 0x5A, data[2] == 0x34 {
    let bytes = UnsafeRawBufferPointer(start: data + 3, count: size - 3)
    for expected in [0, 7, 1000, 1 << 16] {
      for out in [
        try? LZ4.decompress(bytes, expected: expected),
        try? LZ4.decompressHadoop(bytes, expected: expected),
      ] {
        if let out, out.count != expected {
          fatalError("LZ4 gave \(out.count) bytes where \(expected) were expected")
        }
      }
    }
    return 0
  }
  let path = fuzzWrite(data, size, to: "input.parquet")
  guard case .success(let all) = parquetRows(path, decoding: nil),
    let names = try? ParquetSource(path: path).schema.names
  else { return 0 }
  if case .success(let none) = parquetRows(path, decoding: []), none.count != all.count {
    fatalError("a count of \(none.count) rows where reading gives \(all.count)")
  }
  // Statistics, whatever the bytes say, rule out row groups without a crash (what they rule
  // out is the file's word: a file whose statistics lie is not read again to check them).
  for name in names.prefix(4) where name.allSatisfy({ $0.isLetter }) {
    if let source = try? ParquetSource(path: path),
      let scan = try? Scan(
        query: SourceText("\(name) > 0 and \(name) < 1000 or \(name) is null"), source: source)
    {
      _ = try? scan.run(into: CountSink(to: nil))
    }
  }
  // A sort with a limit reads its key alone, then fetches the records it keeps whole (late
  // decoding): each one a row that reading gives, as many as there are rows up to the limit.
  for name in names.prefix(2) where name.allSatisfy({ $0.isLetter }) {
    guard let source = try? ParquetSource(path: path),
      let scan = try? Scan(query: SourceText("true order by \(name) desc limit 3"), source: source),
      let kept = try? scan.records()
    else { continue }
    let rows = Set(all.map(\.description))
    if kept.count != min(3, all.count)
      || kept.contains(where: { !rows.contains($0.values.description) })
    {
      fatalError("a sort by \(name) kept \(kept.map(\.values)) of \(all)")
    }
  }
  // What reads, written by flt's writer, reads back the same (unless the writer said it
  // changed a value: a time cut to the microsecond).
  if let schema = try? ParquetSource(path: path).schema {
    let out = OutputSink()
    if let writer = try? ParquetWriter(schema: schema, to: out, rowGroupRows: 3) {
      for row in all { writer.write(DataRecord(values: row, text: [], format: .json)) }
      writer.finish()
      out.flush()
      // (Never empty: the file begins with its magic bytes.)
      let copy = out.collected.withUnsafeBufferPointer { bytes in
        fuzzWrite(bytes.baseAddress!, bytes.count, to: "written.parquet")
      }
      guard case .success(let back) = parquetRows(copy, decoding: nil) else {
        fatalError("flt cannot read the Parquet it wrote")
      }
      if writer.warnings.isEmpty && back.map(\.description) != all.map(\.description) {
        fatalError("written and read back:\n\(back)\nwhere it was\n\(all)")
      }
    }
  }
  for (slot, name) in names.enumerated() {
    guard case .success(let alone) = parquetRows(path, decoding: [name]) else {
      fatalError("column \(name) does not read alone, where every column reads")
    }
    let column = alone.map { $0[slot] }
    if column.map(\.description) != all.map({ $0[slot].description }) {
      fatalError("column \(name) reads otherwise alone:\n\(column)\n\(all.map { $0[slot] })")
    }
  }
  return 0
}
