import ConsumerApp
import LazyInject
import LazyInjectTesting
import XCTest

// On Linux, listing `@MainActor` XCTest methods (`swift test --filter`) crashes corelibs XCTest.
// XCTest runs test methods on the main thread, so they assume the main actor instead.

/// Each test method runs with the stub loader of `overrides(_:)`, in a layer of its own.
final class UsersScreenXCTests: OverridingTestCase {
  override func overrides(_ overrides: InitializerRegistry) {
    overrides.register(ResourceLoader.self, in: UsersViewController.self) { _ in
      ResourceLoader(path: "/stub/users")
    }
  }

  func testUsersScreensLoadThroughTheStub() {
    MainActor.assumeIsolated {
      for screen in [UsersViewController(), AdminUsersViewController()] {
        screen.load()
        XCTAssertEqual(screen.loaded, "GET https://api.example.com/stub/users")
      }
    }
  }

  func testOtherScreensKeepTheRootDefault() {
    MainActor.assumeIsolated {
      XCTAssertEqual(SettingsViewController().resourceLoader.path, "/resources")
    }
  }
}
