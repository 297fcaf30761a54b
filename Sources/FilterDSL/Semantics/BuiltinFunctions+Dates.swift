/// Dates: `date(...)`, `datetime(...)` and the parts of a date or date-time (in UTC).
extension BuiltinFunctions {
  static let dateFunctions: [FunctionDefinition] = [
    FunctionDefinition(
      name: "date", arity: 1...2,
      resultType: { types in
        if types.count == 2 {
          guard isText(types[0]), isText(types[1]) else {
            return .failure(
              TypeRuleError("date(text, format) takes two texts: date(day, \"%d/%m/%Y\")"))
          }
          return .success(.date)
        }
        switch types[0] {
        case .string, .date, .dateTime, .null: return .success(.date)
        default:
          return .failure(
            TypeRuleError("date takes text, a date or a date-time, not \(types[0])"))
        }
      },
      checkLiterals: { literals in
        guard literals.count == 2, case .string(let pattern)? = literals[1] else { return nil }
        do throws(TypeRuleError) {
          _ = try DateFormat(pattern)
          return nil
        } catch {
          return error
        }
      },
      evaluate: { args, _ in
        switch args[0] {
        case .date(let d): return .success(.date(d))
        case .dateTime(let t): return .success(.date(TimeArithmetic.day(of: t)))
        case .string(let text):
          // Text that is not a date is null, and counted (a fault), so that a column of
          // dates in another format does not silently match nothing.
          // A date-time's text gives its day, as a date-time does.
          let date: CalendarDate?
          if args.count == 2, case .string(let pattern) = args[1] {
            guard let format = try? DateFormat(pattern) else {
              return .failure(.invalidConversion)
            }
            date = format.date(from: text)
          } else {
            switch Value.isoDate(Array(text.utf8)) {
            case .date(let day): date = day
            case .dateTime(let instant): date = TimeArithmetic.day(of: instant)
            default: date = nil
            }
          }
          return date.map { .success(.date($0)) } ?? .failure(.invalidConversion)
        default: return .success(.null)
        }
      }),
    FunctionDefinition(
      name: "datetime", arity: 1...2,
      resultType: { types in
        if types.count == 2 {
          guard isText(types[0]), isText(types[1]) else {
            return .failure(
              TypeRuleError(
                "datetime(text, format) takes two texts: datetime(placed, \"%d/%m/%Y %H:%M\")"))
          }
          return .success(.dateTime)
        }
        switch types[0] {
        case .string, .date, .dateTime, .null: return .success(.dateTime)
        default:
          return .failure(
            TypeRuleError("datetime takes text, a date or a date-time, not \(types[0])"))
        }
      },
      checkLiterals: { literals in
        guard literals.count == 2, case .string(let pattern)? = literals[1] else { return nil }
        do throws(TypeRuleError) {
          _ = try DateFormat(pattern)
          return nil
        } catch {
          return error
        }
      },
      evaluate: { args, _ in
        switch args[0] {
        case .date(let day):
          return TimeArithmetic.instant(of: day).map { .success(.dateTime($0)) }
            ?? .failure(.invalidConversion)
        case .dateTime: return .success(args[0])
        case .string(let text):
          // Text that is no date-time is null, and counted (a fault). A date is its midnight.
          let instant: Instant?
          if args.count == 2, case .string(let pattern) = args[1] {
            instant = (try? DateFormat(pattern))?.instant(from: text)
          } else {
            switch Value.isoDate(Array(text.utf8)) {
            case .date(let day): instant = TimeArithmetic.instant(of: day)
            case .dateTime(let value): instant = value
            default: instant = nil
            }
          }
          return instant.map { .success(.dateTime($0)) } ?? .failure(.invalidConversion)
        default: return .success(.null)
        }
      }),
    datePart("year", timeToo: false) { day, _ in day.components.year },
    datePart("month", timeToo: false) { day, _ in day.components.month },
    datePart("day", timeToo: false) { day, _ in day.components.day },
    datePart("hour", timeToo: true) { _, second in Int(second / 3600) },
    datePart("minute", timeToo: true) { _, second in Int(second / 60 % 60) },
    // ISO 8601: Monday is 1, Sunday 7 (1970-01-01 was a Thursday).
    datePart("weekday", timeToo: false) { day, _ in
      Int((day.daysSinceEpoch % 7 + 7 + 3) % 7) + 1
    },
  ]

  /// A part of a date or date-time as an integer; `part` gets the day and the second within
  /// it (0 for a date).
  private static func datePart(
    _ name: String, timeToo: Bool,
    _ part: @escaping @Sendable (CalendarDate, Int64) -> Int
  ) -> FunctionDefinition {
    FunctionDefinition(
      name: name, arity: 1...1,
      resultType: { types in
        switch types[0] {
        case .date, .dateTime, .null: .success(.int)
        default:
          .failure(TypeRuleError("\(name) takes a date or a date-time, not \(types[0])"))
        }
      },
      evaluate: { args, _ in
        switch args[0] {
        case .date(let day): return .success(.int(Int64(part(day, 0))))
        case .dateTime(let instant):
          // Floor division, so that instants before 1970 fall on the right day.
          let days =
            instant.seconds >= 0 ? instant.seconds / 86_400 : (instant.seconds + 1) / 86_400 - 1
          let second = instant.seconds - days * 86_400
          return .success(.int(Int64(part(CalendarDate(daysSinceEpoch: days), second))))
        default: return .success(.null)
        }
      })
  }
}
