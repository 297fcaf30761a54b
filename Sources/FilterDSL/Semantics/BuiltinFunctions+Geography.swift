#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Geography: `distance(lat, lng, lat2, lng2)`, the great-circle distance in metres (compare it
/// with `5km`, which is 5000), and `inBox(lat, lng, south, west, north, east)`. Coordinates are
/// degrees; a latitude outside -90...90 or a longitude outside -180...180 is null and counted
/// as a fault, never a trap.
extension BuiltinFunctions {
  static let geography: [FunctionDefinition] = [
    FunctionDefinition(
      name: "distance", arity: 4...4,
      resultType: { types in
        coordinates(
          "distance", types, example: "distance(lat, lng, 48.85, 2.35) < 5km", result: .double)
      },
      evaluate: { args, _ in
        guard let degrees = Geography.coordinates(args) else {
          return .failure(.invalidConversion)
        }
        return .success(
          .double(
            Geography.distance(
              latitude: degrees[0], longitude: degrees[1], degrees[2], degrees[3])))
      }),
    FunctionDefinition(
      name: "inBox", arity: 6...6,
      resultType: { types in
        coordinates("inBox", types, example: "inBox(lat, lng, 48.8, 2.2, 48.9, 2.4)", result: .bool)
      },
      evaluate: { args, _ in
        guard let degrees = Geography.coordinates(args), degrees[2] <= degrees[4] else {
          return .failure(.invalidConversion)
        }
        let (latitude, longitude) = (degrees[0], degrees[1])
        let (south, west, north, east) = (degrees[2], degrees[3], degrees[4], degrees[5])
        // A box whose west edge is east of its east edge crosses the antimeridian.
        let inLongitude =
          west <= east
          ? west <= longitude && longitude <= east : longitude >= west || longitude <= east
        return .success(.bool(south <= latitude && latitude <= north && inLongitude))
      }),
  ]

  /// The type rule of a function of coordinates: numbers (or null) alone.
  private static func coordinates(
    _ name: String, _ types: [ValueType], example: String, result: ValueType
  ) -> Result<ValueType, TypeRuleError> {
    guard types.allSatisfy({ $0.isNumeric || $0 == .null }) else {
      return .failure(
        TypeRuleError(
          "\(name) takes latitudes and longitudes in degrees, as numbers: \(example)"))
    }
    return .success(result)
  }
}

/// The arithmetic of points on the Earth, taken as a sphere.
enum Geography {
  /// The Earth's mean radius, in metres (IUGG), as Elasticsearch's arc distance uses.
  static let radius = 6_371_008.8

  /// The great-circle distance in metres between two points given in degrees (the haversine
  /// formula, accurate to well under a metre at any distance on the sphere).
  static func distance(
    latitude: Double, longitude: Double, _ latitude2: Double, _ longitude2: Double
  ) -> Double {
    let toRadians = Double.pi / 180
    let (φ1, φ2) = (latitude * toRadians, latitude2 * toRadians)
    let Δφ = φ2 - φ1
    let Δλ = (longitude2 - longitude) * toRadians
    let a = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
    // (a can leave 0...1 by a rounding; asin needs it inside.)
    return 2 * radius * asin(Swift.min(1, Swift.max(0, a)).squareRoot())
  }

  /// The arguments as degrees: latitudes (even positions) in -90...90, longitudes (odd
  /// positions) in -180...180; nil when one is not a number or is out of range.
  static func coordinates(_ args: [Value]) -> [Double]? {
    var degrees: [Double] = []
    degrees.reserveCapacity(args.count)
    for (index, arg) in args.enumerated() {
      let value: Double
      switch arg {
      case .int(let i): value = Double(i)
      case .double(let d): value = d
      default: return nil
      }
      let limit: Double = index % 2 == 0 ? 90 : 180
      guard value >= -limit && value <= limit else { return nil }
      degrees.append(value)
    }
    return degrees
  }
}
