// swift-tools-version:6.2
// A small app that uses LazyInject exactly as a user's app would: by package dependency (a path
// here, a URL in a real app), through the public API only.
import PackageDescription

// The app is built as Xcode 26 builds a new app target: default main-actor isolation, with
// approachable concurrency. CI also builds it as a classic Swift 6 app and as the Xcode template
// in Swift 5 mode: CONSUMER_CONFIGURATION=classic or swift5. (LazyInject keeps its own settings:
// `-Xswiftc` flags would reach every target.)
let mainActorByDefault: [SwiftSetting] = [
  .defaultIsolation(MainActor.self),
  .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
  .enableUpcomingFeature("InferIsolatedConformances"),
]
let appSettings: [SwiftSetting] = {
  switch Context.environment["CONSUMER_CONFIGURATION"] {
  case "classic": return []
  case "swift5":
    // Approachable concurrency turns on, in Swift 5 mode, what Swift 6 mode has already.
    return mainActorByDefault + [
      .swiftLanguageMode(.v5),
      .enableUpcomingFeature("InferSendableFromCaptures"),
      .enableUpcomingFeature("GlobalActorIsolatedTypesUsability"),
      .enableUpcomingFeature("DisableOutwardActorInference"),
    ]
  default: return mainActorByDefault
  }
}()

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
      dependencies: [.product(name: "LazyInject", package: "LazyInject")],
      swiftSettings: appSettings),
    .executableTarget(
      name: "consumer-app", dependencies: ["ConsumerApp"], swiftSettings: appSettings),
    // Test doubles shared by both test targets.
    .target(
      name: "ConsumerAppTestSupport", dependencies: ["ConsumerApp"],
      path: "Tests/ConsumerAppTestSupport", swiftSettings: appSettings),
    .testTarget(
      name: "ConsumerAppTests",
      dependencies: [
        "ConsumerApp", "ConsumerAppTestSupport",
        .product(name: "LazyInject", package: "LazyInject"),
        .product(name: "LazyInjectTesting", package: "LazyInject"),
        // validate(_:), the check of a screen's properties, for the tests only.
        .product(name: "LazyInjectChecks", package: "LazyInject"),
      ],
      swiftSettings: appSettings),
    .testTarget(
      name: "ConsumerAppXCTests",
      dependencies: [
        "ConsumerApp", "ConsumerAppTestSupport",
        .product(name: "LazyInject", package: "LazyInject"),
        .product(name: "LazyInjectTesting", package: "LazyInject"),
      ],
      swiftSettings: appSettings),
  ],
  swiftLanguageModes: [.v6]
)
