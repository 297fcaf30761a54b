extension Value {
  /// The date or date-time that `text` spells the way filters write them (ISO-8601:
  /// `2022-09-16`, `2022-09-16T10:00:00Z`), or nil when it is anything else. Data readers use
  /// this to recognise date columns.
  public static func isoDate(_ text: [UInt8]) -> Value? {
    guard DateLiteral.startsAt(text, 0) else { return nil }
    let (end, result) = DateLiteral.scan(text, at: 0)
    guard end == text.count, case .success(let literal) = result else { return nil }
    switch literal {
    case .date(let date): return .date(date)
    case .dateTime(let instant): return .dateTime(instant)
    default: return nil
    }
  }
}
