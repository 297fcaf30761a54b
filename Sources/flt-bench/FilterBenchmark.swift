import FilterDSL
import Foundation

/// The compiled engine against a hand-written closure and Foundation's `#Predicate`, over
/// 1,000,000 phones, filtering with the design example.
enum FilterBenchmark {
  struct Phone: Sendable {
    var model: String
    var price: Int
    var screenSize: Double
    var processor: String
    var memory: Int
    var diskSpace: Int
    var color: String
  }

  static let colors = [
    "Midnight", "Starlight", "Space Black", "Gold", "Silver", "Deep Purple", "Red", "Blue",
  ]

  /// A deterministic catalog (a small linear congruential generator, so every run and every
  /// machine filters the same records).
  static func catalog(count: Int) -> [Phone] {
    var state: UInt64 = 42
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let disks = [64, 128, 256, 512, 1024]
    return (0..<count).map { i in
      Phone(
        model: "Phone \(i % 1000)", price: 299 + next(1400),
        screenSize: 4.7 + Double(next(25)) / 10,
        processor: ["A15 Bionic", "A16 Bionic", "Tensor G2", "Snapdragon 8"][next(4)],
        memory: [4, 6, 8, 12][next(4)],
        diskSpace: disks[next(disks.count)], color: colors[next(colors.count)])
    }
  }

  static let phones = RecordType<Phone>([
    .string("model") { $0.model },
    .int("price") { $0.price },
    .double("screenSize") { $0.screenSize },
    .string("processor") { $0.processor },
    .int("memory") { $0.memory },
    .int("diskSpace") { $0.diskSpace },
    .string("color", knownValues: colors) { $0.color },
  ])

  /// The same fields by key path: stored properties, read in place.
  static let phonesByKeyPath = RecordType<Phone>([
    .string("model", \.model), .int("price", \.price), .double("screenSize", \.screenSize),
    .string("processor", \.processor), .int("memory", \.memory), .int("diskSpace", \.diskSpace),
    .string("color", knownValues: colors, \.color),
  ])

  /// One workload only, for a profiler: the compiled filter over typed values, ten times,
  /// record by record (`catalog.filter(compiled.matches)`), or as a batch; its fields read by
  /// closure or by key path.
  static func profile(batch: Bool, keyPaths: Bool) {
    let catalog = catalog(count: 1_000_000)
    guard
      let compiled = try? CompiledFilter(
        #"color in (Starlight, "Space Black") and diskSpace >= 256"#,
        for: keyPaths ? phonesByKeyPath : phones)
    else { return }
    var total = 0
    for _ in 0..<10 {
      total +=
        batch ? compiled.filter(catalog).matches.count : catalog.filter(compiled.matches).count
    }
    print(total)
  }

  static func run() {
    let count = 1_000_000
    let catalog = catalog(count: count)
    let text = #"color in (Starlight, "Space Black") and diskSpace >= 256"#
    guard let compiled = try? CompiledFilter(text, for: phones) else {
      print("the filter does not compile")
      return
    }
    let dynamicType = RecordType.dynamic(phones.schema)
    let records: [[Value]] = catalog.map {
      [
        .string($0.model), .int(Int64($0.price)), .double($0.screenSize), .string($0.processor),
        .int(Int64($0.memory)),
        .int(Int64($0.diskSpace)), .string($0.color),
      ]
    }
    guard let dynamic = try? CompiledFilter(text, for: dynamicType) else { return }
    let predicate = #Predicate<Phone> {
      ($0.color == "Starlight" || $0.color == "Space Black") && $0.diskSpace >= 256
    }

    var results: [String: Int] = [:]
    let handWritten = Timing.median(runs: 7) {
      results["hand-written"] =
        catalog.filter {
          ($0.color == "Starlight" || $0.color == "Space Black") && $0.diskSpace >= 256
        }.count
    }
    let loop = Timing.median(runs: 7) {
      var matches = 0
      for phone in catalog
      where (phone.color == "Starlight" || phone.color == "Space Black") && phone.diskSpace >= 256 {
        matches += 1
      }
      results["loop"] = matches
    }
    let typed = Timing.median(runs: 7) { results["typed"] = catalog.filter(compiled.matches).count }
    let batch = Timing.median(runs: 7) { results["batch"] = compiled.filter(catalog).matches.count }
    guard let byKeyPath = try? CompiledFilter(text, for: phonesByKeyPath) else { return }
    let typedKeyPath = Timing.median(runs: 7) {
      results["typed-key-path"] = catalog.filter(byKeyPath.matches).count
    }
    let batchKeyPath = Timing.median(runs: 7) {
      results["batch-key-path"] = byKeyPath.filter(catalog).matches.count
    }
    let overDynamic = Timing.median(runs: 7) {
      results["dynamic"] = records.filter(dynamic.matches).count
    }
    let dynamicBatch = Timing.median(runs: 7) {
      results["dynamic-batch"] = dynamic.filter(records).matches.count
    }
    let foundation = Timing.median(runs: 3) {
      results["#Predicate"] = catalog.filter { (try? predicate.evaluate($0)) ?? false }.count
    }

    let expected = results["hand-written"] ?? -1
    print("flt-bench filter (release build)")
    print("  \(count) phones, filter: \(text)")
    print("  plan: \(compiled.plan)")
    func row(_ name: String, _ key: String, _ seconds: Double) {
      let nanos = seconds / Double(count) * 1e9
      let check = results[key] == expected ? "" : "  MISMATCH: \(results[key] ?? -1) matches"
      print(
        "  " + name.padding(toLength: 52, withPad: " ", startingAt: 0)
          + "\(Timing.format(nanos)) ns/record".padding(toLength: 18, withPad: " ", startingAt: 0)
          + "\(Timing.format(seconds / handWritten, 2)) x hand-written" + check)
    }
    row("hand-written closure (reference)", "hand-written", handWritten)
    row("hand-written for loop, counting", "loop", loop)
    row("compiled, typed Phone, filter.filter(catalog)", "batch", batch)
    row("compiled, typed Phone, catalog.filter(matches)", "typed", typed)
    row("  fields by key path, filter.filter(catalog)", "batch-key-path", batchKeyPath)
    row("  fields by key path, catalog.filter(matches)", "typed-key-path", typedKeyPath)
    row("compiled, dynamic [Value], filter.filter(records)", "dynamic-batch", dynamicBatch)
    row("compiled, dynamic [Value], records.filter(matches)", "dynamic", overDynamic)
    row("Foundation #Predicate", "#Predicate", foundation)
    let (chain, chainCount) = concreteChain(catalog)
    results["chain"] = chainCount
    row("same chain, concrete closures", "chain", chain)
    let opaque = opaqueTest()
    let floor = Timing.median(runs: 7) { results["opaque"] = catalog.filter(opaque).count }
    row("hand-written test behind an opaque call", "opaque", floor)
    let dynamicHand = Timing.median(runs: 7) {
      results["dynamic-hand"] = records.filter(FilterBenchmark.dynamicTest).count
    }
    row("hand-written test over [Value]", "dynamic-hand", dynamicHand)
    let dynamicOpaque = opaqueDynamicTest()
    let dynamicFloor = Timing.median(runs: 7) {
      results["dynamic-opaque"] = records.filter(dynamicOpaque).count
    }
    row("  the same behind an opaque call", "dynamic-opaque", dynamicFloor)
    print("  matches: \(expected)")
  }

  /// The hand-written test as a closure the optimiser cannot see into, as every filter compiled
  /// at run time is: the floor of `catalog.filter(compiled.matches)`. `Array.filter` then
  /// copies each record to pass it (a retain and release of its three strings), which it
  /// leaves out when it sees the closure's body.
  @inline(never) static func opaqueTest() -> (Phone) -> Bool {
    { ($0.color == "Starlight" || $0.color == "Space Black") && $0.diskSpace >= 256 }
  }

  /// The design example written by hand over dynamic records (slots as `dynamic` declares
  /// them: color 6, diskSpace 5).
  @inline(__always) static func dynamicTest(_ record: [Value]) -> Bool {
    guard record.count > 6, case .string(let color) = record[6],
      color == "Starlight" || color == "Space Black", case .int(let disk) = record[5]
    else { return false }
    return disk >= 256
  }

  /// ``dynamicTest(_:)`` as a closure the optimiser cannot see into: the floor of
  /// `records.filter(compiled.matches)` over dynamic records.
  @inline(never) static func opaqueDynamicTest() -> ([Value]) -> Bool {
    { dynamicTest($0) }
  }

  /// The compiled chain's shape written by hand as concrete closures for `Phone`: what
  /// composing closures costs before any generic abstraction.
  static func concreteChain(_ catalog: [Phone]) -> (Double, Int) {
    let readColor: (Phone) -> String? = { $0.color }
    let readDisk: (Phone) -> Int64? = { Int64($0.diskSpace) }
    let strings = ["Starlight", "Space Black"]
    let a: (Phone, inout Int) -> UInt8 = { r, f in
      readColor(r).map { strings.contains($0) ? 2 : 0 } ?? 1
    }
    let b: (Phone, inout Int) -> UInt8 = { r, f in readDisk(r).map { $0 >= 256 ? 2 : 0 } ?? 1 }
    let and: (Phone, inout Int) -> UInt8 = { r, f in
      let x = a(r, &f)
      return x == 0 ? 0 : Swift.min(x, b(r, &f))
    }
    var count = 0
    let t = Timing.median(runs: 7) {
      count =
        catalog.filter {
          var f = 0; return and($0, &f) == 2
        }.count
    }
    return (t, count)
  }
}
