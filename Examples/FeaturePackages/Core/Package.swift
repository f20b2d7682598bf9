// swift-tools-version:6.2
// The protocols that the app's packages share: Feed and Profile use them, the app and the
// packages implement them. Only protocols, no class, so it needs no check and no tests.
import PackageDescription

let package = Package(
  name: "Core",
  platforms: [.macOS(.v10_15), .iOS(.v13)],
  products: [.library(name: "Core", targets: ["Core"])],
  targets: [.target(name: "Core")],
  swiftLanguageModes: [.v6]
)
