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
    let (sφ, sλ) = (sine(Δφ / 2), sine(Δλ / 2))
    let a = sφ * sφ + cosine(φ1) * cosine(φ2) * sλ * sλ
    // (a can leave 0...1 by a rounding.) The central angle 2 asin √a, as 2 atan2(√a, √(1-a)).
    let h = Swift.min(1, Swift.max(0, a))
    return 2 * radius * angle(h.squareRoot(), (1 - h).squareRoot())
  }

  // The core imports no C library, so it computes the little trigonometry it needs itself:
  // reduced to a small argument, then a series whose terms fall below 1e-17 (tested against
  // the C library's to 1e-15 in GeographyTests).

  /// sin(x), for |x| up to a few π (the angles above are at most π).
  static func sine(_ x: Double) -> Double {
    let (r, quadrant) = reduced(x)
    switch quadrant {
    case 0: return sineSeries(r)
    case 1: return cosineSeries(r)
    case 2: return -sineSeries(r)
    default: return -cosineSeries(r)
    }
  }

  /// cos(x), as ``sine(_:)``.
  static func cosine(_ x: Double) -> Double {
    let (r, quadrant) = reduced(x)
    switch quadrant {
    case 0: return cosineSeries(r)
    case 1: return -sineSeries(r)
    case 2: return -cosineSeries(r)
    default: return sineSeries(r)
    }
  }

  /// The angle of the point (x, y) from the x axis, for x, y ≥ 0 (atan2(y, x)): 0 to π/2.
  static func angle(_ y: Double, _ x: Double) -> Double {
    if y == 0 { return 0 }
    if x == 0 { return Double.pi / 2 }
    // atan(z) for z ≤ 1; beyond, π/2 - atan(1/z).
    return y <= x ? arcTangent(y / x) : Double.pi / 2 - arcTangent(x / y)
  }

  /// atan(z) for 0 ≤ z ≤ 1: halved twice by atan(z) = 2 atan(z / (1 + √(1 + z²))), to
  /// z ≤ tan(π/16) ≈ 0.2, then z - z³/3 + z⁵/5 - ...
  static func arcTangent(_ z: Double) -> Double {
    var z = z
    for _ in 0..<2 { z = z / (1 + (1 + z * z).squareRoot()) }
    var (term, sum, k) = (z, z, 1.0)
    let z2 = z * z
    while k < 31 {
      term *= -z2
      k += 2
      sum += term / k
    }
    return 4 * sum
  }

  /// x reduced to r = x - n π/2 in about -π/4...π/4, and n modulo 4.
  private static func reduced(_ x: Double) -> (Double, Int) {
    let n = (x / (Double.pi / 2)).rounded()
    let quadrant = Int(n.truncatingRemainder(dividingBy: 4))
    return (x - n * (Double.pi / 2), (quadrant + 4) % 4)
  }

  /// sin(r) for |r| ≤ π/4: r - r³/3! + r⁵/5! - ... to the 19th power.
  private static func sineSeries(_ r: Double) -> Double {
    let r2 = r * r
    var (term, sum) = (r, r)
    for k in stride(from: 2.0, through: 18, by: 2) {
      term *= -r2 / (k * (k + 1))
      sum += term
    }
    return sum
  }

  /// cos(r) for |r| ≤ π/4: 1 - r²/2! + r⁴/4! - ... to the 20th power.
  private static func cosineSeries(_ r: Double) -> Double {
    let r2 = r * r
    var (term, sum) = (1.0, 1.0)
    for k in stride(from: 1.0, through: 19, by: 2) {
      term *= -r2 / (k * (k + 1))
      sum += term
    }
    return sum
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
      case .decimal(let d): value = d.doubleValue
      default: return nil
      }
      let limit: Double = index % 2 == 0 ? 90 : 180
      guard value >= -limit && value <= limit else { return nil }
      degrees.append(value)
    }
    return degrees
  }
}
