import Testing

@testable import FilterData

/// Numbers parsed from raw bytes agree with the standard library's correctly rounded parser.
@Suite struct NumberTextTests {
  func double(_ text: String) -> Double {
    Array(text.utf8).withUnsafeBufferPointer { NumberText.double($0, 0, $0.count) }
  }

  func integer(_ text: String) -> Int64? {
    Array(text.utf8).withUnsafeBufferPointer { NumberText.integer($0, 0, $0.count) }
  }

  @Test func decimalsMatchTheStandardLibrary() {
    var state: UInt64 = 7
    func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    for _ in 0..<20_000 {
      let digits = String(next() % 10_000_000_000_000_000_000)
      let point = Int(next() % UInt64(digits.count + 1))
      var text = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
      if text.hasPrefix(".") { text = "0" + text }
      if text.hasSuffix(".") { text += "0" }
      if next() % 3 == 0 { text += "e\(Int(next() % 60) - 30)" }
      if next() % 2 == 0 { text = "-" + text }
      #expect(double(text) == Double(text), "\(text)")
    }
    for text in [
      "0.1", "6.10", "1e3", "1e400", "-1e400", "4.9e-324", "1e-400", "0.30000000000000004",
    ] {
      #expect(double(text) == Double(text), "\(text)")
    }
  }

  @Test func integersAreExactOrRejected() {
    #expect(integer("9223372036854775807") == Int64.max)
    #expect(integer("-9223372036854775808") == Int64.min)
    #expect(integer("9223372036854775808") == nil)
    #expect(integer("-9223372036854775809") == nil)
    #expect(integer("99999999999999999999999") == nil)
    #expect(integer("007") == nil)
    #expect(integer("0") == 0)
    #expect(integer("-") == nil)
    #expect(integer("") == nil)
    #expect(integer("12a") == nil)
  }

  @Test func utf8ValidationAgreesWithTheStandardLibrary() {
    var state: UInt64 = 11
    for _ in 0..<20_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let count = Int(state >> 60)
      var bytes: [UInt8] = []
      for i in 0..<count {
        let pick = UInt8(truncatingIfNeeded: state >> (i * 4 % 56))
        bytes.append(
          [
            0x41, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80, 0xED, 0xA0, 0xFF, 0xC0,
            0x80, 0xF4,
          ][Int(pick & 15)])
      }
      let valid = String(validating: bytes, as: UTF8.self) != nil
      let invalid = bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalid($0, 0, $0.count) }
      #expect(valid == (invalid == nil), "\(bytes)")
    }
  }
}
