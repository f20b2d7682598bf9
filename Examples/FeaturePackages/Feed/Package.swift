// swift-tools-version:6.2
// A feature package: the feed's screen and what it needs. Its rules travel with it
// (`FeedInitializers`, a LinkedModule), so the app that links it lists none of them.
import PackageDescription

let package = Package(
  name: "Feed",
  platforms: [.macOS(.v10_15), .iOS(.v13)],
  products: [.library(name: "Feed", targets: ["Feed"])],
  dependencies: [
    // In an app: .package(url: "https://github.com/lazyinject/LazyInject.git", from: "1.0.0")
    .package(name: "LazyInject", path: "../../.."),
    .package(path: "../Core"),
  ],
  targets: [
    .target(
      name: "Feed",
      dependencies: ["Core", .product(name: "LazyInject", package: "LazyInject")]),
    .testTarget(
      name: "FeedTests",
      dependencies: [
        "Feed", "Core",
        .product(name: "LazyInject", package: "LazyInject"),
        .product(name: "LazyInjectTesting", package: "LazyInject"),
        // validate(classesIn:), the package's own whole-app check, for the tests only.
        .product(name: "LazyInjectChecks", package: "LazyInject"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
