// swift-tools-version:6.2
// A feature package: the profile screen and what it needs. Its rules travel with it
// (`ProfileInitializers`, a LinkedModule), so the app that links it lists none of them.
import PackageDescription

let package = Package(
  name: "Profile",
  platforms: [.macOS(.v10_15), .iOS(.v13)],
  products: [.library(name: "Profile", targets: ["Profile"])],
  dependencies: [
    // In an app: .package(url: "https://github.com/lazyinject/LazyInject.git", from: "1.0.0")
    .package(name: "LazyInject", path: "../../.."),
    .package(path: "../Core"),
  ],
  targets: [
    .target(
      name: "Profile",
      dependencies: ["Core", .product(name: "LazyInject", package: "LazyInject")]),
    .testTarget(
      name: "ProfileTests",
      dependencies: [
        "Profile", "Core",
        .product(name: "LazyInject", package: "LazyInject"),
        .product(name: "LazyInjectTesting", package: "LazyInject"),
        // validate(classesIn:), the package's own whole-app check, for the tests only.
        .product(name: "LazyInjectChecks", package: "LazyInject"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
