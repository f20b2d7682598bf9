import ConsumerApp
import Foundation
import LazyInject
import LazyInjectTesting
import XCTest

final class RecordingAPIClient: APIClient, @unchecked Sendable {
  private let lock = NSLock()
  private var callCount = 0  // guarded by `lock`

  var calls: Int { lock.withLock { callCount } }

  func fetchProfile() -> Profile {
    lock.withLock { callCount += 1 }
    return Profile(name: "Katherine")
  }
}

final class ProfileScreenXCTests: OverridingTestCase {
  override func overrides(_ overrides: InitializerRegistry) {
    overrides.register((any APIClient).self, scope: .singleton) { _ in RecordingAPIClient() }
  }

  // XCTest on Linux cannot call `@MainActor` test methods; it runs tests on the main thread, so
  // the tests assume the main actor instead.

  func testProfileScreenLoadsThroughTheMockClient() throws {
    try MainActor.assumeIsolated {
      let screen = ProfileViewController()
      screen.load()
      XCTAssertEqual(screen.title, "Hello, Katherine!")
      let client = try XCTUnwrap(screen.api as? RecordingAPIClient)
      XCTAssertEqual(client.calls, 1)
    }
  }

  func testEachTestMethodGetsAFreshSingleton() throws {
    try MainActor.assumeIsolated {
      let screen = ProfileViewController()
      screen.load()
      screen.load()
      XCTAssertEqual(try XCTUnwrap(screen.api as? RecordingAPIClient).calls, 2)
    }
  }
}
