import Foundation
import TestSupport
import Testing

@testable import FilterDSL

/// `distance` and `inBox`, and distances written in kilometres (`5km`).
@Suite struct GeographyTests {
  /// Great-circle distances on the sphere of the Earth's mean radius (6,371,008.8 m), against
  /// figures worked out by hand: a degree of latitude is 2πR/360 = 111,195.08 m.
  @Test func distancesOnTheSphere() {
    let degree = 2 * Double.pi * Geography.radius / 360
    #expect(abs(Geography.distance(latitude: 0, longitude: 0, 1, 0) - degree) < 1e-6)
    #expect(abs(Geography.distance(latitude: 10, longitude: 20, 10, 20)) < 1e-9)
    // Half the circumference: antipodes, across the pole and across the antimeridian.
    let half = Double.pi * Geography.radius
    #expect(abs(Geography.distance(latitude: 0, longitude: 0, 0, 180) - half) < 1e-6)
    #expect(abs(Geography.distance(latitude: 90, longitude: 0, -90, 0) - half) < 1e-6)
    #expect(abs(Geography.distance(latitude: 0, longitude: 179, 0, -179) - 2 * degree) < 1e-6)
    // Paris to London: 343.5 km (haversine on this sphere).
    let parisLondon = Geography.distance(latitude: 48.8566, longitude: 2.3522, 51.5074, -0.1278)
    #expect(parisLondon > 343_500 && parisLondon < 343_600)
  }

  /// The core's own sine, cosine and arc tangent (it imports no C library) against the C
  /// library's, over their whole ranges, and the distance against the formula written with
  /// them.
  @Test func trigonometryAgreesWithTheCLibrary() {
    for i in -4000...4000 {
      let x = Double(i) / 1000 * Double.pi  // -4π to 4π
      #expect(abs(Geography.sine(x) - Foundation.sin(x)) < 1e-15, "sin \(x)")
      #expect(abs(Geography.cosine(x) - Foundation.cos(x)) < 1e-15, "cos \(x)")
    }
    for i in 0...2000 {
      let z = Double(i) / 2000
      #expect(abs(Geography.arcTangent(z) - Foundation.atan(z)) < 1e-15, "atan \(z)")
      #expect(abs(Geography.angle(z, 1 - z) - Foundation.atan2(z, 1 - z)) < 1e-15)
    }
    var generator = SplitMix64(seed: 9)
    for _ in 0..<2000 {
      let p = (0..<4).map { i in
        Double(generator.next() % 1_000_001) / 1_000_000 * (i % 2 == 0 ? 180 : 360)
          - (i % 2 == 0 ? 90 : 180)
      }
      let r = Double.pi / 180
      let a =
        pow(Foundation.sin((p[2] - p[0]) * r / 2), 2)
        + Foundation.cos(p[0] * r) * Foundation.cos(p[2] * r)
        * pow(Foundation.sin((p[3] - p[1]) * r / 2), 2)
      let expected = 2 * Geography.radius * Foundation.asin(Swift.min(1, a.squareRoot()))
      let got = Geography.distance(latitude: p[0], longitude: p[1], p[2], p[3])
      #expect(abs(got - expected) < 1e-6, "\(p): \(got) vs \(expected)")
    }
  }

  /// On the record of ``ReferenceEvaluatorTests`` (memory 6, diskSpace 256, price 999).
  @Test(arguments: [
    ("geo-1", "distance(memory, 0, 0, 0) between 667km and 668km", Truth.true),
    ("geo-2", "distance(0, 0, memory, 0) == distance(memory, 0, 0, 0)", .true),
    (
      "geo-3", "inBox(memory, 179, 0, 170, 10, -170) and not inBox(memory, 0, 0, 170, 10, -170)",
      .true
    ),
    (
      "geo-4", "inBox(memory, 5, memory, 5, memory, 5) and inBox(-memory, -180, -90, -180, 0, 180)",
      .true
    ),
    ("geo-5", "distance($missing, 0, 0, 0) > 0", .unknown),
  ])
  func truth(id: String, filter: String, expected: Truth) throws {
    try ReferenceEvaluatorTests.expectBothEngines(id, filter, expected) { $0.isEmpty }
  }

  /// A latitude outside -90...90, a longitude outside -180...180, a box whose south is north of
  /// its north: null, counted, never a trap.
  @Test(arguments: [
    "distance(price, 0, 0, 0) > 0", "distance(0, diskSpace, 0, 0) > 0",
    "distance(0, 0, 0, -diskSpace) > 0", "inBox(memory, 0, 10, 0, 0, 1)",
    "inBox(0, 0, -91, 0, memory, 1)",
  ])
  func outOfRangeFaults(filter: String) throws {
    try ReferenceEvaluatorTests.expectBothEngines(filter, filter, .unknown) {
      $0.total == 1
    }
  }

  @Test func kilometresAreMetres() throws {
    #expect(try Parser.parseFilter("x < 5km").get() == Parser.parseFilter("x < 5000.0").get())
    #expect(try Parser.parseFilter("x < -1.5km").get() == Parser.parseFilter("x < -1500.0").get())
    #expect(
      try Parser.parseFilter("x < 1_000km").get() == Parser.parseFilter("x < 1000000.0").get())
    #expect(try Parser.parseFilter("x < 1e3km").get() == Parser.parseFilter("x < 1e6").get())
    #expect(
      Parser.parseFilter("x < 1e306km").diagnostics.first?.message == "number is out of range")
    // Other suffixes are still words: text in value position.
    #expect(try Parser.parseFilter("x == 5kmh").get() == Parser.parseFilter(#"x == "5kmh""#).get())
  }

  @Test(arguments: [
    ("distance(model, 0, 0, 0) < 5km", "distance takes latitudes and longitudes in degrees"),
    ("inBox(0, 0, 0, 0, 1, inStock)", "inBox takes latitudes and longitudes in degrees"),
    (
      "distance(memory, 0, 0, 0) < 5m",
      "| a distance is a number of metres: write 500 for 500 metres, 5km for 5000"
    ),
  ])
  func typeErrors(filter: String, message: String) {
    let diagnostics = CheckerTests.check(filter)
    #expect(diagnostics.count == 1, "\(filter): \(diagnostics)")
    #expect(diagnostics.first?.contains(message) == true, "\(filter): \(diagnostics)")
  }
}
