import FilterDSL
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
}
