import TestSupport
import Testing

@testable import FilterDSL

/// Exact decimals: spelled and written with their scale, compared by value, `+ - * %` exact
/// or nil beyond 38 digits, converted to and from doubles by their shortest spelling.
@Suite struct ExactDecimalTests {
  static func d(_ text: String) -> ExactDecimal {
    ExactDecimal(text) ?? ExactDecimal(Int64.min)
  }

  @Test(arguments: [
    ("2.50", "2.50"), ("-0.05", "-0.05"), ("12", "12"), ("0.5", "0.5"), ("+7.0", "7.0"),
    ("007.10", "7.10"), ("-0", "0"),
    (String(repeating: "9", count: 38), String(repeating: "9", count: 38)),
    (
      "0." + String(repeating: "0", count: 37) + "1", "0." + String(repeating: "0", count: 37) + "1"
    ),
  ])
  func spelledAndWritten(text: String, written: String) {
    #expect(ExactDecimal(text)?.description == written)
  }

  @Test(arguments: [
    "", "-", ".", "1.2.3", "1e5", "12a", "1 2", String(repeating: "9", count: 39),
    "0." + String(repeating: "0", count: 38) + "1",
  ])
  func notDecimals(text: String) {
    #expect(ExactDecimal(text) == nil)
  }

  @Test func equalByValueWhateverTheScale() {
    #expect(Self.d("2.5") == Self.d("2.50"))
    #expect(Self.d("2.5").hashValue == Self.d("2.500").hashValue)
    #expect(Self.d("0") == Self.d("-0.00"))
    #expect(Self.d("2.5") != Self.d("2.05"))
  }

  @Test(arguments: [
    ("-1.5", "-1.25", -1), ("0.1", "0.10000000000000000001", -1), ("-0.5", "0.25", -1),
    ("3", "2.999", 1), ("-3", "-2.999", -1), ("1.10", "1.1", 0),
    (String(repeating: "9", count: 38), "0." + String(repeating: "9", count: 38), 1),
    ("-0.0001", "0", -1),
  ])
  func compared(a: String, b: String, order: Int) {
    #expect(ExactDecimal.compare(Self.d(a), Self.d(b)) == order)
    #expect(ExactDecimal.compare(Self.d(b), Self.d(a)) == -order)
  }

  @Test func arithmeticIsExact() {
    #expect(Self.d("2.55").subtracting(Self.d("0.55")) == Self.d("2.00"))
    #expect(Self.d("2.55").subtracting(Self.d("0.55"))?.description == "2.00")
    #expect(Self.d("0.1").adding(Self.d("0.2")) == Self.d("0.3"))
    #expect(Self.d("1.1").multiplying(by: Self.d("1.1"))?.description == "1.21")
    #expect(Self.d("-2.5").multiplying(by: Self.d("4"))?.description == "-10.0")
    #expect(Self.d("5.5").remainder(dividingBy: Self.d("2")) == Self.d("1.5"))
    #expect(Self.d("-5.5").remainder(dividingBy: Self.d("2")) == Self.d("-1.5"))
    #expect(Self.d("5.5").remainder(dividingBy: Self.d("0.00")) == nil)
    #expect(Self.d("2.5").negated.description == "-2.5")
  }

  /// Beyond 38 digits is nil, never a wrap or a trap.
  @Test func beyond38DigitsIsNil() {
    let big = Self.d(String(repeating: "9", count: 38))
    #expect(big.adding(Self.d("1")) == nil)
    #expect(big.negated.subtracting(Self.d("1")) == nil)
    #expect(big.multiplying(by: Self.d("10")) == nil)
    #expect(big.multiplying(by: big) == nil)
    // Aligning scales would need 39 digits.
    #expect(big.adding(Self.d("0.1")) == nil)
    #expect(big.remainder(dividingBy: Self.d("0.3")) == nil)
    let tiny = Self.d("0." + String(repeating: "0", count: 19) + "1")
    #expect(tiny.multiplying(by: tiny) == nil)
    #expect(
      Self.d("0.5").multiplying(by: Self.d("0." + String(repeating: "0", count: 36) + "2"))
        == Self.d("0." + String(repeating: "0", count: 36) + "1"))
    // Scales that add past 38 are nil, trailing zeros or not (PostgreSQL keeps the sum).
    #expect(
      Self.d("0.5").multiplying(by: Self.d("0." + String(repeating: "0", count: 37) + "2")) == nil)
    #expect(ExactDecimal(significand: 1, scale: 39) == nil)
  }

  @Test(arguments: [
    (2.55, "2.55"), (1e20, "100000000000000000000"), (1e-5, "0.00001"), (-0.0, "0.0"),
    (100.0, "100.0"), (1.5e-30, "0.0000000000000000000000000000015"), (-123.25, "-123.25"),
  ])
  func fromDouble(double: Double, written: String) {
    #expect(ExactDecimal(double)?.description == written)
  }

  @Test func doublesWithoutADecimal() {
    for double in [Double.nan, .infinity, -.infinity, 1e300, 1e-50, 5e-324] {
      #expect(ExactDecimal(double) == nil, "\(double)")
    }
  }

  /// The nearest double, on the fast path and the slow one.
  @Test func toDouble() {
    #expect(Self.d("2.55").doubleValue == 2.55)
    #expect(Self.d("-0.1").doubleValue == -0.1)
    #expect(Self.d("12345678901234567890.123").doubleValue == 12345678901234567890.123)
    #expect(Self.d("0." + String(repeating: "0", count: 30) + "7").doubleValue == 7e-31)
    var random = SplitMix64(seed: 7)
    for _ in 0..<2_000 {
      let double = Double(random.int(-1_000_000_000...1_000_000_000)) / 1_000
      #expect(ExactDecimal(double)?.doubleValue == double)
    }
  }

  /// A value holding a decimal is no larger than one holding text: the decimal is boxed.
  @Test func valuesStaySmall() {
    #expect(MemoryLayout<Value>.size <= MemoryLayout<String>.size + 1)
  }

  @Test func rounded() {
    #expect(Self.d("2.5").rounded(.toNearestOrAwayFromZero) == 3)
    #expect(Self.d("-2.5").rounded(.toNearestOrAwayFromZero) == -3)
    #expect(Self.d("2.49").rounded(.toNearestOrAwayFromZero) == 2)
    #expect(Self.d("-2.1").rounded(.down) == -3)
    #expect(Self.d("-2.1").rounded(.up) == -2)
    #expect(Self.d("2.1").rounded(.up) == 3)
    #expect(Self.d("2.00").rounded(.up) == 2)
    #expect(Self.d("-2.9").truncated == -2)
    #expect(Self.d("99999999999999999999.5").rounded(.down) == nil)
    #expect(Self.d("99999999999999999999.5").truncated == nil)
  }
}
