// swift-tools-version:6.2
// The app: it links the Feed and Profile packages, whose rules install themselves, and registers
// only what it alone can build, the analytics client that both packages require. Its test runs
// the whole-app check, which also checks what the packages require.
import PackageDescription

// Built as Xcode 26 builds a new app target: default main-actor isolation, with approachable
// concurrency (as Examples/ConsumerApp). The packages keep the classic settings of a library.
let appSettings: [SwiftSetting] = [
  .defaultIsolation(MainActor.self),
  .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
  .enableUpcomingFeature("InferIsolatedConformances"),
]

let package = Package(
  name: "App",
  platforms: [.macOS(.v10_15), .iOS(.v13)],
  dependencies: [
    // In an app: .package(url: "https://github.com/lazyinject/LazyInject.git", from: "1.0.0")
    .package(name: "LazyInject", path: "../../.."),
    .package(path: "../Core"),
    .package(path: "../Feed"),
    .package(path: "../Profile"),
  ],
  targets: [
    .target(
      name: "App",
      dependencies: [
        "Core", "Feed", "Profile", .product(name: "LazyInject", package: "LazyInject"),
      ],
      swiftSettings: appSettings),
    .executableTarget(
      name: "feature-app",
      dependencies: ["App", .product(name: "LazyInject", package: "LazyInject")],
      swiftSettings: appSettings),
    .testTarget(
      name: "AppTests",
      dependencies: [
        "App", "Core", "Feed", "Profile",
        .product(name: "LazyInject", package: "LazyInject"),
        // validate(classesIn:), the whole-app check, for the tests only.
        .product(name: "LazyInjectChecks", package: "LazyInject"),
      ],
      swiftSettings: appSettings),
  ],
  swiftLanguageModes: [.v6]
)
