/// A date format in the style of C's `strftime`, for `date(text, format)`:
/// `date(released, "%d/%m/%Y")`. Directives: `%Y` (four-digit year), `%y` (two digits:
/// 69-99 are 1900s, 00-68 2000s, as POSIX says), `%m` and `%d` (one or two digits), `%e`
/// (like `%d`), `%b` / `%h` and `%B` (month names in English, any case), `%H`, `%M`, `%S`
/// (the time of day: `date` checks and drops it, `datetime(text, format)` keeps it, in UTC),
/// `%%`. A space matches any run of spaces, including none; any other character matches
/// itself.
struct DateFormat: Sendable {
  enum Piece: Sendable, Equatable {
    case literal(Character)
    case space
    case year4, year2, month, monthName, day, hour, minute, second
  }

  let pieces: [Piece]

  static let monthNames = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
  ]

  /// Reads `pattern`; the error says what is wrong with it.
  init(_ pattern: String) throws(TypeRuleError) {
    var pieces: [Piece] = []
    var characters = pattern[...]
    while let character = characters.popFirst() {
      if character == " " {
        pieces.append(.space)
        continue
      }
      guard character == "%" else {
        pieces.append(.literal(character))
        continue
      }
      guard let directive = characters.popFirst() else {
        throw TypeRuleError("the date format ends with '%'; write '%%' for a percent sign")
      }
      switch directive {
      case "Y": pieces.append(.year4)
      case "y": pieces.append(.year2)
      case "m": pieces.append(.month)
      case "b", "h", "B": pieces.append(.monthName)
      case "d", "e": pieces.append(.day)
      case "H": pieces.append(.hour)
      case "M": pieces.append(.minute)
      case "S": pieces.append(.second)
      case "%": pieces.append(.literal("%"))
      default:
        throw TypeRuleError(
          "'%\(directive)' is not a date format directive; use %Y %y %m %d %e %b %B %H %M %S or %%")
      }
    }
    let has = { (options: [Piece]) in pieces.contains { options.contains($0) } }
    guard has([.year4, .year2]), has([.month, .monthName]), has([.day]) else {
      throw TypeRuleError(
        "a date format needs the year (%Y or %y), the month (%m, %b or %B) and the day (%d)")
    }
    self.pieces = pieces
  }

  /// The day `text` names in this format, or nil when it does not match it or names no day.
  func date(from text: String) -> CalendarDate? {
    parts(of: text)?.day
  }

  /// The instant `text` names in this format (UTC; midnight when the format has no time), or
  /// nil when it does not match it or names no day.
  func instant(from text: String) -> Instant? {
    guard let (day, second) = parts(of: text) else { return nil }
    // Days of years 0 to 9999: no overflow.
    return Instant(seconds: day.daysSinceEpoch * 86_400 + Int64(second))
  }

  /// The day `text` names and the second within it.
  private func parts(of text: String) -> (day: CalendarDate, second: Int)? {
    var rest = text[...]
    var year: Int?
    var month: Int?
    var day: Int?
    var time = (hour: 0, minute: 0, second: 0)
    for piece in pieces {
      switch piece {
      case .literal(let character):
        guard rest.first == character else { return nil }
        rest.removeFirst()
      case .space:
        while rest.first?.isWhitespace == true { rest.removeFirst() }
      case .year4:
        guard let value = DateFormat.number(&rest, digits: 4...4) else { return nil }
        year = value
      case .year2:
        guard let value = DateFormat.number(&rest, digits: 2...2) else { return nil }
        year = value < 69 ? 2000 + value : 1900 + value
      case .month:
        month = DateFormat.number(&rest, digits: 1...2)
      case .monthName:
        month = DateFormat.monthName(&rest)
      case .day:
        day = DateFormat.number(&rest, digits: 1...2)
      case .hour, .minute, .second:
        // A leap second (60) is read as the last second of its minute.
        let limit = piece == .hour ? 23 : piece == .minute ? 59 : 60
        guard let value = DateFormat.number(&rest, digits: 1...2), value <= limit else {
          return nil
        }
        switch piece {
        case .hour: time.hour = value
        case .minute: time.minute = value
        default: time.second = Swift.min(value, 59)
        }
      }
    }
    guard rest.isEmpty, let year, let month, let day,
      let date = CalendarDate(year: year, month: month, day: day)
    else { return nil }
    return (date, time.hour * 3600 + time.minute * 60 + time.second)
  }

  /// An unsigned number of `digits` ASCII digits at the start of `text` (as many as there are,
  /// up to the most).
  private static func number(_ text: inout Substring, digits: ClosedRange<Int>) -> Int? {
    var value = 0
    var count = 0
    while count < digits.upperBound, let digit = text.first?.asciiValue, (48...57).contains(digit) {
      value = value * 10 + Int(digit - 48)
      count += 1
      text.removeFirst()
    }
    return count >= digits.lowerBound ? value : nil
  }

  /// A month's English name, whole or its first three letters, in any case.
  private static func monthName(_ text: inout Substring) -> Int? {
    let letters = text.prefix { $0.isLetter }
    let word = letters.lowercased()
    guard word.count >= 3,
      let index = monthNames.firstIndex(where: { $0 == word || ($0.prefix(3) == word) })
    else { return nil }
    text.removeFirst(letters.count)
    return index + 1
  }
}
