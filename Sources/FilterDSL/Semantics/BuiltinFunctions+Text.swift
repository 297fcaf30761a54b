/// Text functions. Positions count characters (what `len` counts), from 0; a negative start
/// counts from the end.
extension BuiltinFunctions {
  static let textFunctions: [FunctionDefinition] =
    [
      FunctionDefinition(
        name: "substring", arity: 2...3,
        resultType: { types in
          guard isText(types[0]), types.dropFirst().allSatisfy(isInteger) else {
            return .failure(
              TypeRuleError(
                "substring takes text, a start and a length (integers): substring(s, 0, 3)"))
          }
          return .success(.string)
        },
        evaluate: { args, _ in
          guard case .string(let text) = args[0], case .int(let start) = args[1] else {
            return .success(.null)
          }
          let characters = Array(text)
          let count = Int64(characters.count)
          // Clamped like SQL's substr: a start or length past either end takes what is there.
          var from = start < 0 ? Swift.max(0, count &+ start) : Swift.min(start, count)
          var to = count
          if args.count == 3, case .int(let length) = args[2] {
            to = length <= 0 ? from : (length >= count &- from ? count : from &+ length)
          }
          from = Swift.min(from, to)
          return .success(.string(String(characters[Int(from)..<Int(to)])))
        }),
      FunctionDefinition(
        name: "indexOf", arity: 2...2,
        resultType: allText(.int, "indexOf takes two texts: indexOf(model, \"Pro\")"),
        evaluate: { args, _ in
          guard case .string(let text) = args[0], case .string(let part) = args[1] else {
            return .success(.null)
          }
          guard let range = text.firstRange(of: part) else { return .success(.int(-1)) }
          return .success(.int(Int64(text.distance(from: text.startIndex, to: range.lowerBound))))
        }),
      textFunction("trim") { String(trimmed($0)) },
      FunctionDefinition(
        name: "replace", arity: 3...3,
        resultType: allText(.string, "replace takes three texts: replace(model, \"Pro\", \"P\")"),
        evaluate: { args, _ in
          guard case .string(let text) = args[0], case .string(let old) = args[1],
            case .string(let new) = args[2]
          else { return .success(.null) }
          return .success(.string(old.isEmpty ? text : text.replacing(old, with: new)))
        }),
    ] + TextOperator.allCases.filter(\.isFunction).map(textTest)

  /// A text operator as a function, with the operator's meaning:
  /// `startsWith(model, "iPhone")` is `model startsWith "iPhone"`.
  private static func textTest(_ op: TextOperator) -> FunctionDefinition {
    FunctionDefinition(
      name: op.rawValue, arity: 2...2,
      resultType: allText(.bool, "\(op.rawValue) takes two texts"),
      evaluate: { args, _ in
        switch TextMatching.test(op, args[0], args[1], []) {
        case .true: .success(.bool(true))
        case .false: .success(.bool(false))
        case .unknown: .success(.null)
        }
      })
  }

  /// The type rule of a function whose arguments are all text: `result`, or `message`.
  private static func allText(_ result: ValueType, _ message: String)
    -> @Sendable ([ValueType]) -> Result<ValueType, TypeRuleError>
  {
    { types in
      types.allSatisfy(isText) ? .success(result) : .failure(TypeRuleError(message))
    }
  }

  /// `text` without the white space at either end.
  static func trimmed(_ text: String) -> Substring {
    guard let first = text.firstIndex(where: { !$0.isWhitespace }),
      let last = text.lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return text[first...last]
  }

  static func isText(_ type: ValueType) -> Bool { type == .string || type == .null }
  static func isInteger(_ type: ValueType) -> Bool { type == .int || type == .null }
}

/// Positions in lists and text.
extension BuiltinFunctions {
  /// `at(list, i)`, also written `list[i]`: the element at `i` (from 0; a negative `i` counts
  /// from the end), or null when there is none. On text, the character there.
  static let positions: [FunctionDefinition] = [
    FunctionDefinition(
      name: "at", arity: 2...2,
      resultType: { types in
        guard isInteger(types[1]) else {
          return .failure(TypeRuleError("a position is an integer, not \(types[1])"))
        }
        switch types[0] {
        case .list(let element): return .success(element)
        case .string, .null: return .success(types[0])
        default:
          return .failure(TypeRuleError("only lists and text have positions, not \(types[0])"))
        }
      },
      takesLists: true,
      evaluate: { args, _ in
        guard case .int(let position) = args[1] else { return .success(.null) }
        switch args[0] {
        case .list(let items):
          guard let index = index(position, count: items.count) else { return .success(.null) }
          return .success(items[index])
        case .string(let text):
          let characters = Array(text)
          guard let index = index(position, count: characters.count) else {
            return .success(.null)
          }
          return .success(.string(String(characters[index])))
        default: return .success(.null)
        }
      })
  ]

  /// The array index of `position` among `count` elements, or nil when it is out of range.
  private static func index(_ position: Int64, count: Int) -> Int? {
    let count = Int64(count)
    let index = position < 0 ? count &+ position : position
    guard index >= 0, index < count else { return nil }
    return Int(index)
  }
}
