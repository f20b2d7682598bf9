import LazyInject
import LazyInjectTesting
import XCTest

private final class Mailer {
  let kind: String
  init(_ kind: String) { self.kind = kind }
}

private final class ComposeScreen {
  @Lazy var mailer: Mailer
}

private let production: Void = InitializerRegistry.shared.register(Mailer.self) { _ in
  Mailer("smtp")
}

final class OverridingTestCaseTests: OverridingTestCase {
  // Outside the test's layer: a registration on `.shared` inside the test would go to its layer.
  override class func setUp() {
    super.setUp()
    production
  }

  override func overrides(_ overrides: InitializerRegistry) {
    overrides.register(Mailer.self) { _ in Mailer("mock") }
  }

  func testTestMethodSeesTheOverrides() {
    XCTAssertEqual(ComposeScreen().mailer.kind, "mock")
  }
}

final class PlainTestCaseTests: XCTestCase {
  func testPlainTestCaseSeesProduction() {
    production
    XCTAssertEqual(ComposeScreen().mailer.kind, "smtp")
  }
}

private final class Archiver {
  let kind: String
  init(_ kind: String) { self.kind = kind }
}

private final class ArchiveScreen {
  @Lazy var archiver: Archiver
}

final class OverridingTestCaseProductionSetUpTests: OverridingTestCase {
  override func overrides(_ overrides: InitializerRegistry) {
    overrides.register(Archiver.self) { _ in Archiver("mock") }
  }

  override func setUp() {
    super.setUp()
    // The app's production set-up, called as a test would: inside the test's layer, below its
    // mocks, and gone with it.
    InitializerRegistry.shared.register(Archiver.self) { _ in Archiver("disk") }
  }

  func testMockWinsOverProductionRegisteredInSetUp() {
    XCTAssertEqual(ArchiveScreen().archiver.kind, "mock")
    // Production went to the test's layer: the registry itself, outside every layer (on a
    // thread of its own), has no rule for it.
    let outside = Locked<String?>(nil)
    runConcurrently(threads: 1) { _ in
      let kind = try? InitializerRegistry.shared.resolve(Archiver.self, for: ArchiveScreen()).kind
      outside.mutate { $0 = kind }
    }
    XCTAssertNil(outside.value)
  }
}
