// swift-tools-version:6.0
// Benchmarks for LazyInject against `lazy var`, Swinject and swift-dependencies.
// A package of its own, so that the library keeps no dependency. See BENCHMARKS.md.
import PackageDescription

let package = Package(
  name: "LazyInjectBenchmarks",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "LazyInject", path: ".."),
    .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
    .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
  ],
  targets: [
    // Counts calls to malloc (Linux), for allocations per resolution and bytes per object.
    .target(name: "AllocationCounter"),
    .executableTarget(
      name: "LazyInjectBenchmarks",
      dependencies: [
        "AllocationCounter",
        .product(name: "LazyInject", package: "LazyInject"),
        .product(name: "Swinject", package: "Swinject"),
        .product(name: "Dependencies", package: "swift-dependencies"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
