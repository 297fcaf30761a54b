import FilterDSL
import FilterData
import FilterSession
import Foundation
import Testing

/// A session confined by its policy: the files it may load, databases, limits, and what its
/// messages may quote from the data.
@Suite struct SessionPolicyTests {
  /// A folder holding `phones.json` (a copy of the example), a symlink out of it, and a
  /// secret file beside it; removed at the end.
  final class Folders {
    let root: String
    let data: String

    init() throws {
      root = NSTemporaryDirectory() + "flt-policy-\(UUID().uuidString)"
      data = root + "/data"
      let files = FileManager.default
      try files.createDirectory(atPath: data, withIntermediateDirectories: true)
      try files.copyItem(
        atPath: SessionHarness.examples + "/phones.json", toPath: data + "/phones.json")
      try "{\"secret\": 1}\n".write(
        toFile: root + "/secret.json", atomically: true, encoding: .utf8)
      try files.createSymbolicLink(
        atPath: data + "/link.json", withDestinationPath: "../secret.json")
      try files.createDirectory(atPath: data + "/sub", withIntermediateDirectories: true)
      try files.copyItem(atPath: data + "/phones.json", toPath: data + "/sub/more.json")
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }
  }

  static func harness(_ policy: SessionPolicy, base: String) -> SessionHarness {
    let harness = SessionHarness()
    harness.session.baseDirectory = base
    harness.session.policy = policy
    return harness
  }

  @Test func loadsStayInTheDataFolder() throws {
    let folders = try Folders()
    let harness = Self.harness(.untrusted(loadingFrom: folders.data), base: folders.data)
    #expect(harness.printed("load \"phones.json\"\ncount").hasSuffix("\n"))
    #expect(harness.failure("load \"sub/more.json\"") == nil)
    for path in [
      "../secret.json", "link.json", folders.root + "/secret.json", "/etc/passwd",
      "sub/../../secret.json", "missing.json",
    ] {
      let failure = try #require(harness.failure("load \"\(path)\""), "\(path)")
      #expect(failure.codes == [.notAllowed], "\(path)")
      #expect(!failure.rendered.contains("secret\": 1"), "\(path)")
    }
    // The trusted default loads the same paths.
    let trusted = Self.harness(.trusted, base: folders.data)
    #expect(trusted.failure("load \"link.json\"") == nil)
  }

  @Test func databasesCanBeRefused() throws {
    let folders = try Folders()
    var policy = SessionPolicy.trusted
    policy.allowsDatabases = false
    let harness = Self.harness(policy, base: folders.data)
    for place in ["shop.db", "postgresql://u@localhost/db"] {
      let failure = try #require(harness.failure("load \"\(place)\" table phones"))
      #expect(failure.codes == [.notAllowed])
    }
  }

  @Test func messagesQuoteNoValuesFromTheData() throws {
    let folders = try Folders()
    let typo = "load \"phones.json\"\ncount processor == \"Tensor G3\""
    let trusted = Self.harness(.trusted, base: folders.data)
    _ = trusted.printed(typo)
    #expect(trusted.warnings.contains("Tensor G2"))
    let untrusted = Self.harness(.untrusted(loadingFrom: folders.data), base: folders.data)
    _ = untrusted.printed(typo)
    #expect(!untrusted.warnings.contains("Tensor G2"))
    // The filter still runs on the data.
    let count = "count processor == \"Tensor G2\""
    #expect(untrusted.printed(count) == trusted.printed(count) && trusted.printed(count) != "0\n")
  }

  @Test func dataErrorsAndWarningsQuoteNothingOfTheData() throws {
    let folders = try Folders()
    try "{\"pin\": 4321}\n{\"pin\": 9876, oops}\n".write(
      toFile: folders.data + "/broken.jsonl", atomically: true, encoding: .utf8)
    try "{\"zip\": 2139}\n{\"zip\": \"SW1A 1AA\"}\n".write(
      toFile: folders.data + "/zips.jsonl", atomically: true, encoding: .utf8)
    let trusted = Self.harness(.trusted, base: folders.data)
    let shown = try #require(trusted.failure("load \"broken.jsonl\""))
    #expect(shown.rendered.contains("9876, oops"))
    let untrusted = Self.harness(.untrusted(loadingFrom: folders.data), base: folders.data)
    let withheld = try #require(untrusted.failure("load \"broken.jsonl\""))
    #expect(!withheld.rendered.contains("9876") && !withheld.rendered.contains("oops"))
    #expect(
      withheld.rendered.contains("error[FLT401]: broken.jsonl:2:15: the data is not valid here"))
    #expect(withheld.codes == [.cannotLoad])
    // Warnings (a value that does not convert to the type asked for) are counted, not shown.
    _ = trusted.printed("load \"zips.jsonl\" type zip=int")
    #expect(trusted.warnings.contains("SW1A 1AA"))
    _ = untrusted.printed("load \"zips.jsonl\" type zip=int")
    #expect(!untrusted.warnings.contains("SW1A"))
    #expect(untrusted.warnings.contains("loading \"zips.jsonl\" gave 2 warnings about its data"))
  }

  @Test func statementsOverTheLimitsFailAndPrintNothing() throws {
    let folders = try Folders()
    var policy = SessionPolicy.trusted
    policy.evaluationLimits = EvaluationLimits(maxCostPerQuery: 50)
    let harness = Self.harness(policy, base: folders.data)
    _ = harness.printed("load \"phones.json\"")
    for statement in [
      "model contains \"Pro\"", "count model like \"*Pro*\"", "facets color where model contains x",
    ] {
      let before = harness.output.text
      let failure = try #require(harness.failure(statement), "\(statement)")
      #expect(failure.codes == [.overCostLimit], "\(statement)")
      #expect(failure.rendered.contains("50 cost units per run"))
      #expect(harness.output.text == before)
    }
    // Cheap statements run.
    #expect(harness.failure("count price < 1000") == nil)
    // A filter too costly for the per-record estimate is refused before it runs.
    harness.session.policy.evaluationLimits = .untrusted
    let refused = try #require(
      harness.failure("count model matches \"(a|b|c|d|e|f|g|h){400}\""))
    #expect(refused.codes == [.tooCostly])
  }

  /// Named filters that double at each level: their expansion is held to the policy's node
  /// limit (it reached 1,000,000 nodes where the policy allows 5,000), and the script cannot
  /// raise its own limits.
  @Test func limitsHoldAfterExpansionAndCannotBeRaised() throws {
    let folders = try Folders()
    let harness = Self.harness(.untrusted(loadingFrom: folders.data), base: folders.data)
    var script = "load \"phones.json\"\nlet b0 = price > 1\n"
    for level in 1...14 { script += "let b\(level) = b\(level - 1) or b\(level - 1)\n" }
    let failure = try #require(harness.failure(script + "count b14"))
    #expect(failure.codes == [.expansionTooLarge])
    #expect(failure.rendered.contains("hold 5000 nodes"))
    // Smaller ones run.
    #expect(harness.printed("count b8") == "111\n")
    // Memory may be lowered, never raised.
    #expect(harness.failure("set memory 1GB") == nil)
    for raise in ["set memory none", "set memory 2GB"] {
      let refused = try #require(harness.failure(raise), "\(raise)")
      #expect(refused.rendered.contains("this session's limits are fixed"), "\(raise)")
    }
    #expect(harness.session.settings.memoryLimit == 1_000_000_000)
    // The trusted default expands to the parser's own limit, and may set its memory.
    let trusted = Self.harness(.trusted, base: folders.data)
    #expect(trusted.printed(script + "count b14") == "111\n")
    #expect(trusted.failure("set memory none") == nil)
  }

  @Test func scriptsGetTheParserLimits() throws {
    let folders = try Folders()
    let harness = Self.harness(.untrusted(loadingFrom: folders.data), base: folders.data)
    let deep = String(repeating: "(", count: 40) + "price > 1" + String(repeating: ")", count: 40)
    let failure = try #require(harness.failure("load \"phones.json\"\ncount " + deep))
    #expect(failure.codes.contains(.nestingTooDeep))
  }
}
