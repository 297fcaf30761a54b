// libFuzzer harness for the Parquet reader: any bytes as a Parquet file. Reading it must give
// records or an error naming the file, never a crash; and when it reads, a count gives as many
// records, and each column read alone (as a query naming only it reads it) the values it has
// when every column is read. Build and run with `Fuzz/run parquet`.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

nonisolated(unsafe) let parquetFolder: String = {
  var template = Array("/tmp/flt-fuzz-parquet-XXXXXX".utf8CString)
  let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
  precondition(made != nil, "cannot make a temporary folder")
  return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}()

/// The values of every row of `path` (only the columns `decoding` names, the others null), or
/// the error's text.
func parquetRows(_ path: String, decoding: Set<String>?) -> Result<[[Value]], FuzzFailure> {
  do {
    let source = try ParquetSource(path: path)
    source.prepare(decoding: decoding)
    var rows: [[Value]] = []
    try source.read { block in
      guard case .batches(let batches) = block else { fatalError("Parquet gave records") }
      for batch in batches {
        for row in batch.table.rows { rows.append(batch.table.row(row)) }
      }
      return true
    }
    return .success(rows)
  } catch let error as DataError {
    guard error.description.contains(path) else { fatalError("an error without the file: \(error)") }
    return .failure(FuzzFailure(message: error.description))
  } catch {
    fatalError("an error that is not a DataError: \(error)")
  }
}

public func fuzzParquet(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let path = parquetFolder + "/input.parquet"
  guard let file = fopen(path, "wb") else { fatalError("cannot write \(path)") }
  if !bytes.isEmpty { fwrite(bytes, 1, bytes.count, file) }
  fclose(file)
  guard case .success(let all) = parquetRows(path, decoding: nil),
    let names = try? ParquetSource(path: path).schema.names
  else { return 0 }
  if case .success(let none) = parquetRows(path, decoding: []), none.count != all.count {
    fatalError("a count of \(none.count) rows where reading gives \(all.count)")
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
