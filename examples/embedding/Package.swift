// swift-tools-version:6.0
// A program that embeds flt's core and nothing else: what an embedder's Package.swift says.
// CI builds and runs it in debug and release (examples/embedding/run), so a program importing
// FilterDSL alone keeps linking on every platform.
import PackageDescription

let package = Package(
  name: "PhoneFilter",
  dependencies: [
    // Where flt is: a path (as here, the checkout this example sits in; the last folder of the
    // path names the package, so it must be called `flt`), or its git URL with a version.
    .package(path: "../flt")
  ],
  targets: [
    .executableTarget(
      name: "PhoneFilter",
      dependencies: [.product(name: "FilterDSL", package: "flt")])
  ]
)
