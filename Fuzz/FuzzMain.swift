// The entry point of the fuzzer binary: `FLT_FUZZ` (parse, evaluate, readers, parquet, arrow,
// postgres, keys) picks
// the harness that each input goes to. Build and run with `Fuzz/run`.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The harness chosen for this run.
nonisolated(unsafe) let fuzzHarness: (UnsafePointer<UInt8>, Int) -> CInt = {
  let name = getenv("FLT_FUZZ").map { String(cString: $0) } ?? "parse"
  switch name {
  case "parse": return fuzzParse
  case "evaluate": return fuzzEvaluate
  case "readers": return fuzzReaders
  case "parquet": return fuzzParquet
  case "arrow": return fuzzArrow
  case "postgres": return fuzzPostgres
  case "keys": return fuzzKeys
  default: fatalError("FLT_FUZZ names no harness: \(name)")
  }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  fuzzHarness(data, size)
}
