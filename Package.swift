// swift-tools-version:6.0
import PackageDescription

// flt: a declarative filter language for Swift. No package dependencies: only the toolchain's
// own libraries. The core (FilterDSL) does not import Foundation, so it embeds anywhere.
let package = Package(
  name: "flt",
  products: [
    .library(name: "FilterDSL", targets: ["FilterDSL"]),
    .library(name: "FilterData", targets: ["FilterData"]),
    .library(name: "FilterSession", targets: ["FilterSession"]),
    .library(name: "FilterSQL", targets: ["FilterSQL"]),
    .library(name: "FilterDatabase", targets: ["FilterDatabase"]),
    .executable(name: "flt", targets: ["flt"]),
  ],
  targets: [
    // The language core: source, diagnostics, lexer, AST, parser, printer. No Foundation.
    // `Double.rounded` and `%` call the C maths library (round, trunc, fmod), which on Linux
    // only Foundation links: a program that imports FilterDSL alone would not link without it.
    .target(
      name: "FilterDSL",
      linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux, .android]))]),
    // Queries translated to SQL (PostgreSQL, SQLite), exactly or not at all. Core only.
    .target(name: "FilterSQL", dependencies: ["FilterDSL"]),
    // Files and data on disk (Foundation allowed).
    .target(name: "FilterData", dependencies: ["FilterDSL"]),
    // Queries run in databases: SQLite (the system library, loaded at run time), with what
    // SQL cannot answer exactly finished in flt.
    .target(name: "FilterDatabase", dependencies: ["FilterDSL", "FilterSQL", "FilterData"]),
    // Scripts and the REPL: statements run against loaded data, line editing, completion.
    .target(
      name: "FilterSession",
      dependencies: ["FilterDSL", "FilterData", "FilterSQL", "FilterDatabase"]),
    // The command-line tool.
    .executableTarget(
      name: "flt",
      dependencies: ["FilterDSL", "FilterData", "FilterSession", "FilterSQL", "FilterDatabase"]),
    // Release-build benchmarks: `swift run -c release flt-bench parse`.
    .executableTarget(
      name: "flt-bench", dependencies: ["FilterDSL", "FilterData", "FilterSession"]),
    // What every test target shares: temporary files that are cleaned up, a small-stack runner,
    // seeded random filters and records for the differential tests of every engine.
    .target(name: "TestSupport", dependencies: ["FilterDSL"], path: "Tests/TestSupport"),
    .testTarget(
      name: "FilterDSLTests", dependencies: ["FilterDSL", "TestSupport"],
      exclude: ["Golden"]),
    .testTarget(name: "FilterDataTests", dependencies: ["FilterData", "FilterDSL", "TestSupport"]),
    .testTarget(
      name: "FilterSessionTests",
      dependencies: [
        "FilterSession", "FilterData", "FilterDSL", "FilterSQL", "FilterDatabase", "TestSupport",
      ]),
    .testTarget(
      name: "FilterSQLTests", dependencies: ["FilterSQL", "FilterDSL", "TestSupport"]),
    .testTarget(
      name: "FilterDatabaseTests",
      dependencies: ["FilterDatabase", "FilterSQL", "FilterData", "FilterDSL", "TestSupport"]),
    .testTarget(
      name: "fltTests",
      dependencies: ["flt", "FilterData", "FilterDatabase", "FilterSQL", "TestSupport"]),
  ]
)
