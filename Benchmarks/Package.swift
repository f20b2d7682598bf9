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
    // A module of 1,000 screen classes, generated at build time, for timing validate(classesIn:).
    .executableTarget(name: "ScreenGenerator"),
    .plugin(name: "GenerateScreens", capability: .buildTool(), dependencies: ["ScreenGenerator"]),
    .target(
      name: "GeneratedScreens",
      dependencies: [.product(name: "LazyInject", package: "LazyInject")],
      // Unoptimized: its 5,000 properties' accessors take minutes to optimize, and the
      // validation reads only the classes' metadata.
      swiftSettings: [.unsafeFlags(["-Onone"])],
      plugins: ["GenerateScreens"]),
    // The app-scale group (`--only app-scale`): executables of 500 services read through each
    // system, with M extra protocol conformances (each target's app-scale.json), generated at
    // build time. LazyInjectBenchmarks builds them when the group runs (`swift build --product`),
    // so that its own build, CI's, never compiles the 20,000 conformances.
    .executableTarget(name: "AppScaleGenerator"),
    .plugin(
      name: "GenerateAppScale", capability: .buildTool(), dependencies: ["AppScaleGenerator"]),
    // The child modes and figure keys, shared by AppScaleKit and LazyInjectBenchmarks, which so
    // builds no part of the group but these (Benchmarks/compare builds it on old LazyInjects).
    .target(name: "AppScaleFigures"),
    .target(
      name: "AppScaleKit",
      dependencies: [
        "AppScaleFigures",
        .product(name: "LazyInject", package: "LazyInject"),
        .product(name: "LazyInjectChecks", package: "LazyInject"),
        .product(name: "Swinject", package: "Swinject"),
        .product(name: "Dependencies", package: "swift-dependencies"),
      ]),
    appScale(conformances: 0),
    appScale(conformances: 200),
    appScale(conformances: 20_000),
    .executableTarget(
      name: "LazyInjectBenchmarks",
      dependencies: [
        "AllocationCounter", "AppScaleFigures", "GeneratedScreens",
        .product(name: "LazyInject", package: "LazyInject"),
        .product(name: "LazyInjectChecks", package: "LazyInject"),
        .product(name: "Swinject", package: "Swinject"),
        .product(name: "Dependencies", package: "swift-dependencies"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

/// The app-scale executable `AppScale<conformances>`, whose folder's app-scale.json says how many
/// services and conformances GenerateAppScale generates.
func appScale(conformances: Int) -> Target {
  .executableTarget(
    name: "AppScale\(conformances)",
    dependencies: [
      "AppScaleKit",
      .product(name: "LazyInject", package: "LazyInject"),
      .product(name: "Swinject", package: "Swinject"),
      .product(name: "Dependencies", package: "swift-dependencies"),
    ],
    exclude: ["app-scale.json"],
    plugins: ["GenerateAppScale"])
}
