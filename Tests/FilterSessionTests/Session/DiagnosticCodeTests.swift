import FilterDSL
import FilterData
import Testing

@testable import FilterSession

/// Each module owns its diagnostic codes; together they never collide.
@Suite struct DiagnosticCodeTests {
  @Test func everyCodeOfEveryModuleIsUnique() {
    let all = DiagnosticCode.language + DiagnosticCode.data + DiagnosticCode.session
    #expect(Set(all).count == all.count)
    #expect(Set(all.map(\.description)).count == all.count)
  }

  @Test func eachModuleKeepsToItsRange() {
    #expect(DiagnosticCode.language.allSatisfy { (100..<400).contains($0.number) })
    #expect(DiagnosticCode.data.allSatisfy { (400..<500).contains($0.number) })
    #expect(DiagnosticCode.session.allSatisfy { (500..<600).contains($0.number) })
  }
}
