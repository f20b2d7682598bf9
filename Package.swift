// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "LazyInject",
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
  products: [
    .library(name: "LazyInject", targets: ["LazyInject"]),
    // Test helpers: a Swift Testing trait and an XCTest base class that install overrides.
    .library(name: "LazyInjectTesting", targets: ["LazyInjectTesting"]),
  ],
  targets: [
    // Atomics and a thread-local slot for the hot path of `@Lazy`. Swift's own `Atomic` needs
    // iOS 18 / macOS 15, newer than the systems LazyInject supports.
    .target(name: "_LazyInjectShims"),
    .target(name: "LazyInject", dependencies: ["_LazyInjectShims"]),
    .target(name: "LazyInjectTesting", dependencies: ["LazyInject"]),
    .executableTarget(name: "LazyInjectDemo", dependencies: ["LazyInject"]),
    .testTarget(name: "LazyInjectTests", dependencies: ["LazyInject", "LazyInjectTesting"]),
    // Runs every scene of the demo and checks what it says.
    .testTarget(name: "LazyInjectDemoTests", dependencies: ["LazyInjectDemo"]),
  ],
  swiftLanguageModes: [.v6]
)
