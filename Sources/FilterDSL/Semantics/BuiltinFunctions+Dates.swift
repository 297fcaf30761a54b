/// Dates and times: `date(...)`, `datetime(...)`, `time(...)` and the parts of a date, a
/// date-time (in UTC) or a time of day.
extension BuiltinFunctions {
  static let dateFunctions: [FunctionDefinition] = [
    timeConversion("date", to: .date, example: #"date(day, "%d/%m/%Y")"#) { text, format in
      // A date-time's text gives its day, as a date-time does.
      if let format { return format.date(from: text).map(Value.date) }
      switch Value.isoDate(Array(text.utf8)) {
      case .date(let day): return .date(day)
      case .dateTime(let instant): return .date(TimeArithmetic.day(of: instant))
      default: return nil
      }
    },
    timeConversion(
      "datetime", to: .dateTime, example: #"datetime(placed, "%d/%m/%Y %H:%M")"#
    ) { text, format in
      // A date is its midnight.
      if let format { return format.instant(from: text).map(Value.dateTime) }
      switch Value.isoDate(Array(text.utf8)) {
      case .date(let day): return TimeArithmetic.instant(of: day).map(Value.dateTime)
      case .dateTime(let instant): return .dateTime(instant)
      default: return nil
      }
    },
    timeOfDay,
    datePart("year", timeToo: false) { day, _ in day.components.year },
    datePart("month", timeToo: false) { day, _ in day.components.month },
    datePart("day", timeToo: false) { day, _ in day.components.day },
    datePart("hour", timeToo: true) { _, second in Int(second / 3600) },
    datePart("minute", timeToo: true) { _, second in Int(second / 60 % 60) },
    datePart("second", timeToo: true) { _, second in Int(second % 60) },
    // ISO 8601: Monday is 1, Sunday 7 (1970-01-01 was a Thursday).
    datePart("weekday", timeToo: false) { day, _ in
      Int((day.daysSinceEpoch % 7 + 7 + 3) % 7) + 1
    },
  ]

  /// `name(x)` and `name(text, format)`: a date or date-time (`type`) of a date, a date-time,
  /// or text, which `read` reads (in `format` when given; nil when it does not spell one: a
  /// fault, counted). `example` shows the two-argument form in messages.
  private static func timeConversion(
    _ name: String, to type: ValueType, example: String,
    _ read: @escaping @Sendable (String, DateFormat?) -> Value?
  ) -> FunctionDefinition {
    FunctionDefinition(
      name: name, arity: 1...2,
      resultType: { types in
        if types.count == 2 {
          guard isText(types[0]), isText(types[1]) else {
            return .failure(TypeRuleError("\(name)(text, format) takes two texts: \(example)"))
          }
          return .success(type)
        }
        switch types[0] {
        case .string, .date, .dateTime, .null: return .success(type)
        default:
          return .failure(
            TypeRuleError("\(name) takes text, a date or a date-time, not \(types[0])"))
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
          // A date as a date-time is its midnight.
          guard type == .dateTime else { return .success(args[0]) }
          return TimeArithmetic.instant(of: day).map { .success(.dateTime($0)) }
            ?? .failure(.invalidConversion)
        case .dateTime(let instant):
          // A date-time as a date is its day.
          return .success(type == .date ? .date(TimeArithmetic.day(of: instant)) : args[0])
        case .string(let text):
          var format: DateFormat? = nil
          if args.count == 2, case .string(let pattern) = args[1] {
            guard let parsed = try? DateFormat(pattern) else { return .failure(.invalidConversion) }
            format = parsed
          }
          return read(text, format).map(Result.success) ?? .failure(.invalidConversion)
        default: return .success(.null)
        }
      })
  }

  /// `time(x)`: the time of day of text (`"22:00"`, `"09:30:15.5"`), of a date-time (UTC),
  /// or of a time.
  private static let timeOfDay = FunctionDefinition(
    name: "time", arity: 1...1,
    resultType: { types in
      switch types[0] {
      case .string, .dateTime, .time, .null: .success(.time)
      default:
        .failure(TypeRuleError("time takes text, a date-time or a time of day, not \(types[0])"))
      }
    },
    evaluate: { args, _ in
      switch args[0] {
      case .time: return .success(args[0])
      case .dateTime(let instant): return .success(.time(TimeArithmetic.time(of: instant)))
      case .string(let text):
        if let time = Value.isoTime(Array(text.utf8)) { return .success(.time(time)) }
        // A date-time's text gives its time, as a date-time does.
        guard case .dateTime(let instant)? = Value.isoDate(Array(text.utf8)) else {
          return .failure(.invalidConversion)
        }
        return .success(.time(TimeArithmetic.time(of: instant)))
      default: return .success(.null)
      }
    })

  /// A part of a date, a date-time or (for `hour`, `minute` and `second`: `timeToo`) a time
  /// of day as an integer; `part` gets the day and the second within it (0 for a date).
  private static func datePart(
    _ name: String, timeToo: Bool,
    _ part: @escaping @Sendable (CalendarDate, Int64) -> Int
  ) -> FunctionDefinition {
    FunctionDefinition(
      name: name, arity: 1...1,
      resultType: { types in
        switch types[0] {
        case .date, .dateTime, .null: .success(.int)
        case .time where timeToo: .success(.int)
        default:
          .failure(
            TypeRuleError(
              "\(name) takes a date\(timeToo ? ", a date-time or a time of day" : " or a date-time"), not \(types[0])"
            ))
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
        case .time(let time):
          return .success(.int(Int64(part(CalendarDate(daysSinceEpoch: 0), time.secondOfDay))))
        default: return .success(.null)
        }
      })
  }
}
