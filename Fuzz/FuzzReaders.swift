// libFuzzer harness for the data readers: any bytes, read as JSON, JSON Lines, CSV and TSV
// (and, when they start with gzip's magic, inflated), whole (inputs are at most 2 KiB) and in
// blocks of a size chosen by the input's first byte (each buffer read in two parts at once
// where it can be), must give the same schema and records or the same error, and never crash. Build and run with `Fuzz/run readers`.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Everything a reader gives for a file: schema and records, or the error.
struct FuzzContents: Equatable {
  var schema: Schema
  var values: [[Value]]
  var texts: [[UInt8]]
}

func fuzzRead(_ path: String, _ format: DataFormat, blockSize: Int, inParts: Bool) -> Result<
  FuzzContents, FuzzFailure
> {
  do throws(DataError) {
    let reader = try DataReader(path: path, format: format, blockSize: blockSize)
    reader.readsInParts = inParts
    var contents = FuzzContents(schema: reader.schema, values: [], texts: [])
    while let block = try reader.next() {
      for record in block {
        contents.values.append(record.values)
        contents.texts.append(Array(record.text))
      }
    }
    return .success(contents)
  } catch {
    return .failure(FuzzFailure(message: error.description))
  }
}

struct FuzzFailure: Error, Equatable { var message: String }

nonisolated(unsafe) let fuzzFolder: String = {
  var template = Array("/tmp/flt-fuzz-readers-XXXXXX".utf8CString)
  let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
  precondition(made != nil, "cannot make a temporary folder")
  return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}()

public func fuzzReaders(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let path = fuzzFolder + "/input"
  guard let file = fopen(path, "wb") else { fatalError("cannot write \(path)") }
  if !bytes.isEmpty { fwrite(bytes, 1, bytes.count, file) }
  fclose(file)
  let small = 1 + Int(bytes.first ?? 0) % 64
  for format in [DataFormat.json, .jsonl, .csv, .tsv] {
    let whole = fuzzRead(path, format, blockSize: 4096, inParts: false)
    let pieces = fuzzRead(path, format, blockSize: small, inParts: true)
    if whole != pieces {
      fatalError("\(format) read differently at block size \(small):\n\(whole)\n\(pieces)")
    }
  }
  return 0
}
