import FilterDSL
import Foundation

/// The column engine over an embedder's struct of arrays (a `ColumnTable` made from them
/// without copying), against hand-written closures over the same arrays, for every shape of
/// filter: `and`, `or`, `not`, `in`, text, arithmetic. `flt-bench columns`.
enum ColumnBenchmark {
  /// The catalog as a struct of arrays.
  struct Arrays {
    var model: [String] = []
    var price: [Int64] = []
    var screenSize: [Double] = []
    var memory: [Int64] = []
    var diskSpace: [Int64] = []
    var color: [String] = []
  }

  static func run() {
    let count = 1_000_000
    var arrays = Arrays()
    for phone in FilterBenchmark.catalog(count: count) {
      arrays.model.append(phone.model)
      arrays.price.append(Int64(phone.price))
      arrays.screenSize.append(phone.screenSize)
      arrays.memory.append(Int64(phone.memory))
      arrays.diskSpace.append(Int64(phone.diskSpace))
      arrays.color.append(phone.color)
    }
    let schema = Schema([
      .init("model", .string), .init("price", .int), .init("screenSize", .double),
      .init("memory", .int), .init("diskSpace", .int), .init("color", .string),
    ])
    guard
      let table = ColumnTable(
        schema: schema,
        columns: [
          .values(arrays.model.map(Value.string)), .ints(arrays.price),
          .doubles(arrays.screenSize), .ints(arrays.memory), .ints(arrays.diskSpace),
          .values(arrays.color.map(Value.string)),
        ])
    else {
      print("the table does not build")
      return
    }
    let a = arrays
    let shapes: [(String, (Int) -> Bool)] = [
      (
        #"color in (Starlight, "Space Black") and diskSpace >= 256"#,
        { (a.color[$0] == "Starlight" || a.color[$0] == "Space Black") && a.diskSpace[$0] >= 256 }
      ),
      ("diskSpace >= 1024 or price < 400", { a.diskSpace[$0] >= 1024 || a.price[$0] < 400 }),
      ("not (color == Gold) and memory >= 8", { !(a.color[$0] == "Gold") && a.memory[$0] >= 8 }),
      (
        "memory in (6, 12) and screenSize > 6.5",
        { [6, 12].contains(a.memory[$0]) && a.screenSize[$0] > 6.5 }
      ),
      (#"model contains "7""#, { a.model[$0].contains("7") }),
      ("price * 2 + memory > 2500", { a.price[$0] * 2 + a.memory[$0] > 2500 }),
    ]
    print("flt-bench columns (release build; flt on every core, the closures on one)")
    print(
      "  \(count) rows as a struct of arrays; flt filters table.rows, the closure (0..<n).filter")
    let rows = table.rows
    for (text, closure) in shapes {
      guard let filter = try? CompiledFilter(text, for: table.recordType) else {
        print("  \(text): does not compile")
        continue
      }
      var (flt, hand) = (0, 0)
      let fltTime = Timing.median(runs: 7) { flt = filter.filter(rows).matches.count }
      let handTime = Timing.median(runs: 7) { hand = (0..<count).filter(closure).count }
      let check = flt == hand ? "" : "  MISMATCH: \(flt) vs \(hand)"
      print(
        "  " + text.padding(toLength: 58, withPad: " ", startingAt: 0)
          + "\(Timing.format(fltTime / Double(count) * 1e9)) ns/row".padding(
            toLength: 14, withPad: " ", startingAt: 0)
          + "hand \(Timing.format(handTime / Double(count) * 1e9)) ns/row".padding(
            toLength: 20, withPad: " ", startingAt: 0)
          + "\(Timing.format(fltTime / handTime, 2)) x" + check)
    }
  }
}
