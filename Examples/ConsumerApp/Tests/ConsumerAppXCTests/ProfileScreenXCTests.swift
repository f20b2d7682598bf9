import ConsumerApp
import ConsumerAppTestSupport
import LazyInject
import XCTest

nonisolated final class ProfileScreenXCTests: XCTestCase {
  func testScreenLoadsThroughTheSpy() {
    MainActor.assumeIsolated {
      let spy = ProfileAPISpy()
      InitializerRegistry.shared.withOverrides { overrides in
        overrides.registerOnMainActor((any ProfileAPI).self) { _ in spy }
      } operation: {
        let screen = ProfileViewController()
        screen.load()
        XCTAssertEqual(screen.model.greeting, "Hello, Grace!")
      }
      XCTAssertEqual(spy.fetchCount, 1)
    }
  }
}
