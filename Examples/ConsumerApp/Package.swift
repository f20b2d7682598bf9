// swift-tools-version:6.0
// A small app that uses LazyInject exactly as a user's app would: by package dependency (a path
// here, a URL in a real app), through the public API only.
import PackageDescription

// CI also builds this package's targets in Swift 5 mode, `SWIFT_LANGUAGE_MODE=5 swift build ...`,
// to check that the example compiles in both. LazyInject keeps its own Swift 6 mode, which
// `-Xswiftc -swift-version` would override, as it reaches every target.
let languageMode: SwiftLanguageMode =
  Context.environment["SWIFT_LANGUAGE_MODE"] == "5" ? .v5 : .v6

let package = Package(
  name: "ConsumerApp",
  platforms: [.macOS(.v10_15), .iOS(.v13)],
  dependencies: [
    // In an app: .package(url: "https://github.com/lazyinject/LazyInject.git", branch: "main")
    .package(name: "LazyInject", path: "../..")
  ],
  targets: [
    .target(
      name: "ConsumerApp",
      dependencies: [.product(name: "LazyInject", package: "LazyInject")]),
    .executableTarget(name: "consumer-app", dependencies: ["ConsumerApp"]),
    // Test doubles shared by both test targets.
    .target(
      name: "ConsumerAppTestSupport", dependencies: ["ConsumerApp"],
      path: "Tests/ConsumerAppTestSupport"),
    .testTarget(
      name: "ConsumerAppTests",
      dependencies: [
        "ConsumerApp", "ConsumerAppTestSupport",
        .product(name: "LazyInject", package: "LazyInject"),
        .product(name: "LazyInjectTesting", package: "LazyInject"),
      ]),
    .testTarget(
      name: "ConsumerAppXCTests",
      dependencies: [
        "ConsumerApp", "ConsumerAppTestSupport",
        .product(name: "LazyInject", package: "LazyInject"),
        .product(name: "LazyInjectTesting", package: "LazyInject"),
      ]),
  ],
  swiftLanguageModes: [languageMode]
)
