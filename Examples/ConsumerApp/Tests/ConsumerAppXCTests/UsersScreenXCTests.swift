import ConsumerApp
import LazyInject
import LazyInjectTesting
import XCTest

// On Linux, listing `@MainActor` XCTest methods (`swift test --filter`) crashes corelibs XCTest.
// XCTest runs test methods on the main thread, so they assume the main actor instead. The class
// is `nonisolated`: in a test target with default main-actor isolation, corelibs XCTest needs it
// (its `XCTestCase` initializer is nonisolated).

/// Each test method runs with the stub loader of `overrides(_:)`, in a layer of its own.
nonisolated final class UsersScreenXCTests: OverridingTestCase {
  override func overrides(_ overrides: InitializerRegistry) {
    // A loader is a main-actor type: built on the main actor.
    overrides.registerOnMainActor(ResourceLoader.self, in: UsersViewController.self) { _ in
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
