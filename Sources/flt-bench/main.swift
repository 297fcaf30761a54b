// Release-build benchmarks: `swift run -c release flt-bench parse`, `... flt-bench filter`.
//
// Figures are medians of several runs, and each is also given as a ratio to a reference
// measured in the same process, because absolute times on shared machines drift.

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "parse", nil:
  ParseBenchmark.run()
case "filter":
  FilterBenchmark.run()
case "columns":
  ColumnBenchmark.run()
case "filter-profile":
  // `filter-profile batch`: the batch form (`compiled.filter(catalog)`) instead; `key-paths`:
  // the fields declared by key path.
  FilterBenchmark.profile(
    batch: arguments.contains("batch"), keyPaths: arguments.contains("key-paths"))
case "parse-profile":
  // One workload only, for a profiler: parse the generated 1 MB filter five times.
  ParseBenchmark.profile()
case "live":
  // What live results cost per key, over a file loaded into a session.
  LiveBenchmark.run(path: arguments.count > 1 ? arguments[1] : "examples/phones.json")
case "structural":
  // What a structural pass over a file would cost: bitmasks of quotes, three ways.
  StructuralProbe.run(path: arguments.count > 1 ? arguments[1] : "examples/phones.json")
case "generate":
  // The catalog for the data benchmark (Scripts/benchmark-data.sh).
  let count = arguments.count > 1 ? Int(arguments[1]) ?? 1_000_000 : 1_000_000
  CatalogGenerator.run(count: count, folder: arguments.count > 2 ? arguments[2] : ".")
default:
  print(
    "usage: flt-bench parse | filter | columns | live [FILE] | structural [FILE]"
      + " | generate [COUNT [FOLDER]]")
}
