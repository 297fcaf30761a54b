/// An exact decimal number, as SQL's `DECIMAL`: a whole significand of at most 38 digits and a
/// scale, the digits after the point (0 to 38): `2.50` is 250 at scale 2.
///
/// Sums, differences, products and remainders are exact (a result beyond 38 digits is nil,
/// never a wrap); values compare by what they are worth (`2.5 == 2.50`), and keep their scale
/// when written (`2.50`), as in PostgreSQL and DuckDB.
public struct ExactDecimal: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The digits, signed: the value is `significand / 10^scale`.
  public let significand: Int128
  /// The digits after the point.
  public let scale: Int

  /// The most digits a significand has.
  public static let maximumDigits = 38

  /// `significand / 10^scale`; nil when the significand has more than 38 digits or the scale
  /// is outside 0...38.
  public init?(significand: Int128, scale: Int) {
    guard (0...Self.maximumDigits).contains(scale), Self.fits(significand) else { return nil }
    (self.significand, self.scale) = (significand, scale)
  }

  /// An integer, at scale 0.
  public init(_ integer: Int64) {
    (significand, scale) = (Int128(integer), 0)
  }

  /// The number spelled by `text`: an optional sign, digits, and an optional point with
  /// digits after it (`-12.340`, `5`, `0.5`); nil for anything else, or for more than 38
  /// digits (leading zeros aside).
  public init?(_ text: some StringProtocol) {
    var utf8 = Substring(text).utf8[...]
    var negative = false
    if let first = utf8.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
      negative = first == UInt8(ascii: "-")
      utf8 = utf8.dropFirst()
    }
    var significand: Int128 = 0
    var scale = 0
    var digits = 0
    var point = false
    var any = false
    for byte in utf8 {
      if byte == UInt8(ascii: ".") {
        guard !point else { return nil }
        point = true
        continue
      }
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      any = true
      if point { scale += 1 }
      if significand == 0 && byte == UInt8(ascii: "0") && !point { continue }
      digits += 1
      guard digits <= Self.maximumDigits, scale <= Self.maximumDigits else { return nil }
      significand = significand * 10 + Int128(byte - UInt8(ascii: "0"))
    }
    guard any else { return nil }
    self.init(significand: negative ? -significand : significand, scale: scale)
  }

  /// The decimal a double is written as, in its shortest form that reads back the same
  /// (`2.55` for the double nearest 2.55); nil for infinities, NaN, or a number whose shortest
  /// form needs more than 38 digits or a scale past 38 (`1e-50`).
  public init?(_ double: Double) {
    guard double.isFinite else { return nil }
    self.init(scientific: "\(double)")
  }

  /// The number `text` spells exactly, with an exponent or without (`1.5e3` is `1500`,
  /// `2.50` keeps its scale), as JSON and CSV write numbers; nil beyond 38 digits or a scale
  /// past 38.
  public init?(scientific text: some StringProtocol) {
    let text = Substring(text)
    guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else {
      self.init(text)
      return
    }
    // The mantissa shifted by the exponent.
    guard let mantissa = ExactDecimal(text[..<e]),
      let exponent = Int(text[text.index(after: e)...]), exponent.magnitude <= 100
    else { return nil }
    if exponent >= 0 {
      var significand = mantissa.significand
      var scale = mantissa.scale - exponent
      while scale < 0 {
        guard let shifted = Self.times10(significand) else { return nil }
        (significand, scale) = (shifted, scale + 1)
      }
      self.init(significand: significand, scale: scale)
    } else {
      self.init(significand: mantissa.significand, scale: mantissa.scale - exponent)
    }
  }

  /// The double nearest the value.
  public var doubleValue: Double {
    // Exact when both fit a double's 53 bits and 10^scale is exact: one correctly rounded
    // division.
    if significand.magnitude < (1 << 53), scale <= 22 {
      return Double(Int64(significand)) / Self.powersOfTen[scale]
    }
    return Double(description) ?? .nan
  }

  /// The value toward zero, if it fits 64 bits.
  public var truncated: Int64? {
    Int64(exactly: significand / Self.power(scale))
  }

  /// The whole number nearest the value (halves away from zero), down, or up; nil when it does
  /// not fit 64 bits.
  public func rounded(_ rule: FloatingPointRoundingRule) -> Int64? {
    let unit = Self.power(scale)
    let (whole, rest) = significand.quotientAndRemainder(dividingBy: unit)
    var result = whole
    switch rule {
    case .down where rest < 0: result -= 1
    case .up where rest > 0: result += 1
    case .toNearestOrAwayFromZero where rest.magnitude * 2 >= unit.magnitude:
      result += rest < 0 ? -1 : 1
    default: break
    }
    return Int64(exactly: result)
  }

  /// A double that compares with every number of type `type` (integers or doubles) as this
  /// decimal does, for the loops and the databases that compare doubles: with doubles, its
  /// nearest double (the rule for a decimal and a double); with integers, the same where no
  /// integer lies between the decimal and that double (below 2^53, a double that is whole
  /// only where the decimal is). Nil otherwise: compare exactly.
  package func standIn(against type: ValueType) -> Double? {
    let double = doubleValue
    switch type {
    case .double: return double
    case .int:
      guard double.magnitude < 9_007_199_254_740_992,
        isWhole || double.rounded(.towardZero) != double
      else { return nil }
      return double
    default: return nil
    }
  }

  /// Whether the value is a whole number (`2.00` is).
  public var isWhole: Bool { normalized.scale == 0 }

  /// The same value with no trailing zeros after the point: how values are told apart.
  var normalized: (significand: Int128, scale: Int) {
    var (s, k) = (significand, scale)
    while k > 0, s % 10 == 0 { (s, k) = (s / 10, k - 1) }
    return (s, k)
  }

  /// Whether the two are worth the same, whatever their scales (`2.5 == 2.50`).
  public static func == (a: ExactDecimal, b: ExactDecimal) -> Bool {
    a.normalized == b.normalized
  }

  /// Hashes the value, not its scale: equal decimals hash alike.
  public func hash(into hasher: inout Hasher) {
    let (s, k) = normalized
    hasher.combine(s)
    hasher.combine(k)
  }

  /// Whether `a` is worth less than `b`.
  public static func < (a: ExactDecimal, b: ExactDecimal) -> Bool {
    compare(a, b) < 0
  }

  /// Negative, zero or positive as `a` is below, equal to or above `b`: whole parts first,
  /// then the fractions at one scale (which fit: each is below 10^38).
  static func compare(_ a: ExactDecimal, _ b: ExactDecimal) -> Int {
    let (wa, fa) = a.significand.quotientAndRemainder(dividingBy: power(a.scale))
    let (wb, fb) = b.significand.quotientAndRemainder(dividingBy: power(b.scale))
    if wa != wb { return wa < wb ? -1 : 1 }
    let scale = max(a.scale, b.scale)
    let x = fa * power(scale - a.scale)
    let y = fb * power(scale - b.scale)
    return x < y ? -1 : x == y ? 0 : 1
  }

  /// How an integer compares with a decimal.
  static func compare(_ a: Int64, _ b: ExactDecimal) -> Int {
    compare(ExactDecimal(a), b)
  }

  /// `-self`.
  public var negated: ExactDecimal {
    // A significand of 38 digits or fewer negates within them.
    ExactDecimal(unchecked: -significand, scale: scale)
  }

  /// `self + other`; nil beyond 38 digits.
  public func adding(_ other: ExactDecimal) -> ExactDecimal? {
    guard let (a, b, scale) = Self.aligned(self, other) else { return nil }
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? nil : ExactDecimal(significand: sum, scale: scale)
  }

  /// `self - other`; nil beyond 38 digits.
  public func subtracting(_ other: ExactDecimal) -> ExactDecimal? {
    adding(other.negated)
  }

  /// `self * other`, at the sum of the scales (as PostgreSQL multiplies); nil beyond 38 digits
  /// or a scale past 38.
  public func multiplying(by other: ExactDecimal) -> ExactDecimal? {
    let (product, overflow) = significand.multipliedReportingOverflow(by: other.significand)
    guard !overflow else { return nil }
    return ExactDecimal(significand: product, scale: scale + other.scale)
  }

  /// The remainder of `self / other`, with the sign of `self` (as `%` on integers); nil when
  /// `other` is zero or the scales cannot be aligned within 38 digits.
  public func remainder(dividingBy other: ExactDecimal) -> ExactDecimal? {
    guard other.significand != 0, let (a, b, scale) = Self.aligned(self, other) else {
      return nil
    }
    return ExactDecimal(significand: a % b, scale: scale)
  }

  /// The two significands at the larger scale; nil when one leaves 38 digits so.
  private static func aligned(_ a: ExactDecimal, _ b: ExactDecimal) -> (Int128, Int128, Int)? {
    let scale = max(a.scale, b.scale)
    guard let x = scaled(a.significand, by: scale - a.scale),
      let y = scaled(b.significand, by: scale - b.scale)
    else { return nil }
    return (x, y, scale)
  }

  private static func scaled(_ significand: Int128, by digits: Int) -> Int128? {
    let (value, overflow) = significand.multipliedReportingOverflow(by: power(digits))
    return overflow || !fits(value) ? nil : value
  }

  private static func times10(_ x: Int128) -> Int128? {
    scaled(x, by: 1)
  }

  /// The value written with its scale: `2.50`, `-0.05`, `12`.
  public var description: String {
    let digits = String(significand.magnitude)
    let sign = significand < 0 ? "-" : ""
    guard scale > 0 else { return sign + digits }
    let padded = String(repeating: "0", count: max(0, scale + 1 - digits.count)) + digits
    let point = padded.index(padded.endIndex, offsetBy: -scale)
    return sign + padded[..<point] + "." + padded[point...]
  }

  private init(unchecked significand: Int128, scale: Int) {
    (self.significand, self.scale) = (significand, scale)
  }

  private static func fits(_ significand: Int128) -> Bool {
    significand.magnitude < limit.magnitude
  }

  /// 10^38: the first significand too large.
  private static let limit: Int128 = power(38)

  /// 10^n for n in 0...38.
  @inline(__always) static func power(_ n: Int) -> Int128 { powers[n] }

  private static let powers: [Int128] = (0...38).map { n in
    var result: Int128 = 1
    for _ in 0..<n { result *= 10 }
    return result
  }

  private static let powersOfTen: [Double] = (0...22).map { n in
    var result = 1.0
    for _ in 0..<n { result *= 10 }
    return result
  }
}
