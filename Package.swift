// swift-tools-version:6.0
import PackageDescription

// The demo is an app, built as Xcode 26 builds a new app target: default main-actor isolation
// with approachable concurrency (its types are main-actor isolated unless marked nonisolated).
// CI also builds it as a classic Swift 6 app and as the Xcode template in Swift 5 mode:
// LAZYINJECT_APP_SETTINGS=classic or swift5. (`.defaultIsolation` needs tools 6.2; the flags
// here need a Swift 6.2 compiler, and no product of the package uses them.)
let appSettings: [SwiftSetting] = {
  #if compiler(>=6.2)
    let mainActorByDefault: [SwiftSetting] = [
      .unsafeFlags(["-default-isolation", "MainActor"]),
      .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
      .enableUpcomingFeature("InferIsolatedConformances"),
      .define("MAIN_ACTOR_BY_DEFAULT"),  // For the tests of what only such an app does.
    ]
  #else
    let mainActorByDefault: [SwiftSetting] = []
  #endif
  switch Context.environment["LAZYINJECT_APP_SETTINGS"] {
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
  name: "LazyInject",
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
  products: [
    .library(name: "LazyInject", targets: ["LazyInject"]),
    // Test helpers: a Swift Testing trait and an XCTest base class that install overrides.
    .library(name: "LazyInjectTesting", targets: ["LazyInjectTesting"]),
    // Checks of a whole app, for tests and tools: validate(classes:), validate(classesIn:) and
    // the dependency graph. Apps do not ship it.
    .library(name: "LazyInjectChecks", targets: ["LazyInjectChecks"]),
  ],
  targets: [
    // Atomics and a thread-local slot for the hot path of `@Lazy`. Swift's own `Atomic` needs
    // iOS 18 / macOS 15, newer than the systems LazyInject supports.
    .target(name: "_LazyInjectShims"),
    .target(name: "LazyInject", dependencies: ["_LazyInjectShims", "_LazyInjectScan"]),
    .target(name: "LazyInjectTesting", dependencies: ["LazyInject"]),
    // The records of the binary's types and conformances (ELF sections, Mach-O images): the
    // runtime reads which types conform to its protocols there, the checks a module's classes.
    .target(name: "_LazyInjectScan"),
    .target(
      name: "LazyInjectChecks", dependencies: ["LazyInject", "_LazyInjectScan", "_LazyInjectShims"]),
    .executableTarget(
      name: "LazyInjectDemo", dependencies: ["LazyInject", "LazyInjectChecks"],
      swiftSettings: appSettings),
    .testTarget(
      name: "LazyInjectTests",
      dependencies: [
        "LazyInject", "LazyInjectTesting", "LazyInjectChecks", "LazyInjectValidationFixtures",
        "LazyInjectStrippedFixtures", "LazyInjectNamelessFixtures", "LazyInjectLinkedFixtures",
        "LazyInjectAppFixtures", "LazyInjectTestSupport",
        "_LazyInjectShims", "_LazyInjectScan",
      ]),
    // What the exit tests of both test targets share: a watchdog, and failing the process.
    .target(name: "LazyInjectTestSupport", path: "Tests/TestSupport"),
    // Modules that the tests of `validate(classesIn:)` scan: classes whose initializers trap,
    // and classes built without reflection metadata (an unsafe flag; no product uses them).
    .target(
      name: "LazyInjectValidationFixtures", dependencies: ["LazyInject"],
      path: "Tests/ValidationFixtures"),
    .target(
      name: "LazyInjectLinkedFixtures", dependencies: ["LazyInject"],
      path: "Tests/LinkedFixtures"),
    .target(
      name: "LazyInjectAppFixtures", dependencies: ["LazyInject"], path: "Tests/AppFixtures"),
    .target(
      name: "LazyInjectStrippedFixtures", dependencies: ["LazyInject"],
      path: "Tests/StrippedFixtures",
      swiftSettings: [.unsafeFlags(["-Xfrontend", "-disable-reflection-metadata"])]),
    // Classes built as Xcode's SWIFT_REFLECTION_METADATA_LEVEL = without-names builds them.
    .target(
      name: "LazyInjectNamelessFixtures", dependencies: ["LazyInject"],
      path: "Tests/NamelessFixtures",
      swiftSettings: [.unsafeFlags(["-Xfrontend", "-disable-reflection-names"])]),
    // Runs every scene of the demo and checks what it says.
    .testTarget(
      name: "LazyInjectDemoTests",
      dependencies: [
        "LazyInjectDemo", "LazyInjectChecks", "LazyInjectTesting", "LazyInjectTestSupport",
      ],
      swiftSettings: appSettings),
  ],
  swiftLanguageModes: [.v6]
)
