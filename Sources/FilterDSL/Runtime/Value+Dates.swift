extension Value {
  /// The date or date-time that `text` spells the way filters write them (ISO-8601:
  /// `2022-09-16`, `2022-09-16T10:00:00Z`), or with a space for the `T` (`2022-09-16
  /// 10:00:00`, `2022-09-16 10:00:00.5+02`, as SQL databases and CSV exports write them), or
  /// nil when it is anything else. Data readers use this to recognise date columns, and
  /// `date(text)` and `datetime(text)` to convert text.
  public static func isoDate(_ text: [UInt8]) -> Value? {
    guard DateLiteral.startsAt(text, 0) else { return nil }
    let (end, result) = DateLiteral.scan(text, at: 0, spaceBeforeTime: true)
    guard end == text.count, case .success(let literal) = result else { return nil }
    switch literal {
    case .date(let date): return .date(date)
    case .dateTime(let instant): return .dateTime(instant)
    default: return nil
    }
  }
}

extension Value {
  /// The time of day that `text` spells the way filters write them (`22:00`, `22:00:00`,
  /// `09:30:15.25`), or nil when it is anything else. Data readers use this to recognise
  /// time columns, and `time(text)` to convert text.
  public static func isoTime(_ text: [UInt8]) -> TimeOfDay? {
    guard text.count >= 5, DateLiteral.timeStartsAt(text, 0) else { return nil }
    let (end, result) = DateLiteral.scanTime(text, at: 0)
    guard end == text.count, case .success(.time(let time)) = result else { return nil }
    return time
  }
}

extension Value {
  /// The length of time that `text` spells, the way filters write durations (`45s`, `1h30m`,
  /// `-7d`) or in ISO-8601 (`PT45S`, `P1DT2H`, `P2W`, `PT1.5S`), or nil when it is anything
  /// else (ISO years and months, which have no fixed length, too). Data readers use this to
  /// recognise duration columns.
  public static func duration(_ text: [UInt8]) -> TimeSpan? {
    guard !text.isEmpty, text.count <= 64 else { return nil }
    let negative = text[0] == UInt8(ascii: "-")
    let start = negative ? 1 : 0
    guard start < text.count else { return nil }
    let span: TimeSpan?
    if text[start] == UInt8(ascii: "P") {
      span = isoDuration(text, from: start + 1)
    } else if case .duration(let value) = LiteralDecoder.duration(text, start..<text.count) {
      span = value
    } else {
      span = nil
    }
    guard let span else { return nil }
    guard negative else { return span }
    return span.nanoseconds == .min ? nil : TimeSpan(nanoseconds: -span.nanoseconds)
  }

  /// `[nW][nD][T[nH][nM][n[.fraction]S]]` after the `P`, at least one part.
  private static func isoDuration(_ text: [UInt8], from start: Int) -> TimeSpan? {
    var index = start
    var total: Int64 = 0
    var inTime = false
    var parts = 0
    while index < text.count {
      if text[index] == UInt8(ascii: "T") {
        guard !inTime else { return nil }
        inTime = true
        index += 1
        continue
      }
      var whole: Int64 = 0
      var digits = 0
      while index < text.count, (48...57).contains(text[index]) {
        let (m, o1) = whole.multipliedReportingOverflow(by: 10)
        let (s, o2) = m.addingReportingOverflow(Int64(text[index] - 48))
        guard !o1, !o2 else { return nil }
        whole = s
        digits += 1
        index += 1
      }
      var fraction: Int64 = 0
      if index < text.count, text[index] == UInt8(ascii: "."), inTime {
        index += 1
        var scale: Int64 = 100_000_000
        while index < text.count, (48...57).contains(text[index]) {
          fraction += Int64(text[index] - 48) * scale
          scale /= 10
          index += 1
        }
      }
      guard digits > 0, index < text.count else { return nil }
      let unit: Int64
      switch (text[index], inTime) {
      case (UInt8(ascii: "W"), false): unit = 604_800_000_000_000
      case (UInt8(ascii: "D"), false): unit = 86_400_000_000_000
      case (UInt8(ascii: "H"), true): unit = 3_600_000_000_000
      case (UInt8(ascii: "M"), true): unit = 60_000_000_000
      case (UInt8(ascii: "S"), true): unit = 1_000_000_000
      default: return nil
      }
      guard fraction == 0 || unit == 1_000_000_000 else { return nil }
      let (part, o3) = whole.multipliedReportingOverflow(by: unit)
      let (sum, o4) = total.addingReportingOverflow(part)
      let (withFraction, o5) = sum.addingReportingOverflow(fraction)
      guard !o3, !o4, !o5 else { return nil }
      total = withFraction
      parts += 1
      index += 1
    }
    return parts > 0 ? TimeSpan(nanoseconds: total) : nil
  }
}
