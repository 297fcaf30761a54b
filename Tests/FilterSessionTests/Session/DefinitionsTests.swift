import FilterDSL
import FilterData
import Foundation
import TestSupport
import Testing

@testable import FilterSession

/// Expanding named filters recurses once per level; the expansion limit keeps every pass over
/// the result (expansion, checker, compiler) within a 512 KiB stack even in a debug build.
@Suite struct DefinitionsTests {
  /// A script defining `f0` ... `f<count>`, each `not` the one before.
  static func chain(_ count: Int) -> String {
    var script =
      "load \"phones.json\"\nlet f0 = price > 1 and (diskSpace in (1, 2) or not (color == a))\n"
    for i in 1...count { script += "let f\(i) = not (f\(i - 1) or price < \(i))\n" }
    return script
  }

  @Test func theDeepestNamedFilterRunsOnA512KiBThread() {
    // Find the longest chain the limit accepts, then use it on a small stack.
    var longest = 0
    for count in stride(from: 20, through: 100, by: 20) {
      if SessionHarness().failure(DefinitionsTests.chain(count)) == nil { longest = count }
    }
    #expect(longest >= 20)
    let script = DefinitionsTests.chain(longest) + "count f\(longest) or f\(longest - 1)\n"
    let printed = onThread(stackSize: 512 * 1024) { SessionHarness().printed(script) }
    #expect(!printed.isEmpty)
    let tooDeep = SessionHarness().failure(DefinitionsTests.chain(longest + 10))
    #expect(tooDeep?.codes == [.expansionTooLarge])
  }

  @Test func nothingDefinedLeavesTheFilterAlone() throws {
    let definitions = Definitions()
    let source = SourceText("big and x")
    let expr = try #require(Parser.parseFilter(source).value)
    #expect(definitions.expand(expr)?.expr == expr)  // nothing defined: unchanged
  }

  /// A name defined as one that doubles at each level shares its tree: sixty names for one of
  /// 131,072 nodes took 2.5 GB (each a placed copy); they now hold one node a level, count
  /// their size as written out, and a statement still gets the whole filter.
  @Test func definitionsShareTheTreesTheyName() throws {
    // (Defined before the data is there: with data, each is checked, 131,072 nodes a time.)
    var script = "let a0 = price > 1\n"
    for i in 1...17 { script += "let a\(i) = a\(i - 1) or a\(i - 1)\n" }
    for i in 0..<60 { script += "let b\(i) = a17\n" }
    let before = ProcessMemory.resident ?? 0
    let harness = SessionHarness()
    _ = harness.run(script)
    let grown = (ProcessMemory.resident ?? 0) - before
    _ = harness.run("load \"phones.json\"")
    #expect(grown < 1_000_000_000, "\(grown) bytes")
    let b59 = try #require(harness.session.definitions.filters["b59"])
    // 2^17 comparisons of 3 nodes, 2^17 - 1 ors.
    #expect(b59.nodes == 3 * (1 << 17) + (1 << 17) - 1)
    #expect(b59.depth == 19)
    // Used, a shared name is the whole filter: as many matches as its comparison.
    _ = harness.run("let c0 = price > 500\nlet c1 = c0 or c0\nlet c2 = c1 and c1\nlet c3 = c2")
    #expect(harness.printed("count c3") == harness.printed("count price > 500"))
    #expect(harness.printed("count c3") != harness.printed("count price > 1"))
    // Past the limit when written out, though it holds little.
    let tooLarge = harness.failure("let c = b1 or b2 or b3 or b4 or b5 or b6 or b7 or b8")
    #expect(tooLarge?.codes == [.expansionTooLarge])
  }

  /// An error inside a shared definition is said where this statement uses the name.
  @Test func anErrorInASharedDefinitionPointsAtTheUse() throws {
    let harness = SessionHarness()
    _ = harness.run("let big = nosuchfield >= 256\nlet bigger = big or big")
    _ = harness.run("load \"phones.json\"")
    let failure = try #require(harness.failure("let biggest = bigger and price > 1"))
    #expect(failure.codes == [.unknownField])
    #expect(
      failure.rendered.contains("1 | let biggest = bigger and price > 1\n  |               ^^^^^^"))
  }
}

extension DefinitionsTests {
  /// A name checked against the data is checked by name where another definition uses it:
  /// sixty names for one of 2^17 nodes, each checked on the whole tree, took 12.7 s of CPU
  /// (issue 51.14); the check by name is the same check wherever it may differ.
  @Test func checkedNamesAreCheckedByName() throws {
    let harness = SessionHarness()
    var script = "load \"phones.json\"\nlet a0 = price > 100\n"
    for i in 1...17 { script += "let a\(i) = a\(i - 1) or a\(i - 1)\n" }
    _ = harness.run(script)
    let definitions = harness.session.definitions
    let a17 = try #require(definitions.filters["a17"])
    let check = try #require(a17.checked)
    let written = try #require(Parser.parseFilter("a17 and not a16").value)
    let skeleton = try #require(definitions.skeleton(of: written, checkedAgainst: check))
    // Two nodes for the names, not 2^17 comparisons.
    #expect(skeleton.expr.fieldPaths.isEmpty && skeleton.types.count == check.parameters.count + 2)
    for i in 0..<60 { _ = harness.run("let b\(i) = a17 and a16") }
    #expect(harness.printed("count b59") == harness.printed("count price > 100"))
    // Under `where`, the names are another record's fields: the whole tree is checked.
    let scoped = try #require(Parser.parseFilter("count(tags where a0) > 1").value)
    #expect(definitions.skeleton(of: scoped, checkedAgainst: check) == nil)
    // Checked against other data, or other parameters' types: the whole tree again, and
    // its errors.
    _ = harness.run("let budget = 500\nlet cheap = price < $budget")
    _ = harness.run("let budget = \"x\"")
    #expect(harness.failure("let cheaper = cheap and a0")?.codes == [.incomparable])
    _ = harness.run("load \"cards.json\"")
    let other = try #require(harness.failure("let fine = a0 or hp > 1"))
    #expect(other.codes == [.unknownField])
    #expect(other.rendered.contains("let fine = a0 or hp > 1\n  |            ^^"))
  }
}
