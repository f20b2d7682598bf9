// swift-tools-version:6.0
// A small app that uses LazyInject exactly as a user's app would: by package dependency (a path
// here, a URL in a real app), through the public API only.
import PackageDescription

let package = Package(
  name: "ConsumerApp",
  platforms: [.macOS(.v10_15), .iOS(.v13)],
  dependencies: [
    // In an app: .package(url: "https://github.com/lazyinject/LazyInject.git", from: "0.1.0")
    .package(name: "LazyInject", path: "../..")
  ],
  targets: [
    .target(
      name: "ConsumerApp",
      dependencies: [.product(name: "LazyInject", package: "LazyInject")]),
    .executableTarget(name: "consumer-app", dependencies: ["ConsumerApp"]),
    .testTarget(
      name: "ConsumerAppTests",
      dependencies: [
        "ConsumerApp",
        .product(name: "LazyInject", package: "LazyInject"),
        .product(name: "LazyInjectTesting", package: "LazyInject"),
      ]),
    .testTarget(
      name: "ConsumerAppXCTests",
      dependencies: [
        "ConsumerApp",
        .product(name: "LazyInject", package: "LazyInject"),
        .product(name: "LazyInjectTesting", package: "LazyInject"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
