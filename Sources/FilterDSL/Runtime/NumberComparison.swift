/// Exact comparison of integers and doubles: `9007199254740993 > 9007199254740992.0` is true,
/// where converting the integer to a double would make them equal.
enum NumberComparison {
  /// How `a` compares with `b`: negative, zero or positive; nil when `b` is NaN.
  static func compare(_ a: Int64, _ b: Double) -> Int? {
    if b.isNaN { return nil }
    if b >= 9.223_372_036_854_775_808e18 { return -1 }  // 2^63: above every Int64
    if b < -9.223_372_036_854_775_808e18 { return 1 }
    // Now b is within Int64's range; compare its integral part exactly, then the fraction.
    let whole = b.rounded(.towardZero)
    guard let wholeInt = Int64(exactly: whole) else { return nil }
    if a != wholeInt { return a < wholeInt ? -1 : 1 }
    let fraction = b - whole
    return fraction > 0 ? -1 : fraction < 0 ? 1 : 0
  }

  static func compare(_ a: Double, _ b: Int64) -> Int? {
    compare(b, a).map { -$0 }
  }

  /// Values of one type. (Named apart from the mixed comparisons above, so that two literals
  /// can never silently pick this one as doubles.)
  static func compareSame<T: Comparable>(_ a: T, _ b: T) -> Int {
    a < b ? -1 : a == b ? 0 : 1
  }
}
