import LazyInject
import XCTest

/// An XCTest base class whose tests run with the override registrations of ``overrides(_:)``.
///
/// ```swift
/// nonisolated final class UsersScreenTests: OverridingTestCase {
///   override func overrides(_ overrides: InitializerRegistry) {
///     overrides.register(RequestManager.self) { _ in MockRequestManager() }
///   }
///
///   func testUsersScreenLoadsFromTheMock() {
///     MainActor.assumeIsolated {  // XCTest runs test methods on the main thread
///       XCTAssertTrue(UsersViewController().requestManager is MockRequestManager)
///     }
///   }
/// }
/// ```
///
/// Screens are `@MainActor`: a test method assumes the main actor, as above, rather than being
/// declared `@MainActor`, which corelibs XCTest on Linux runs under `swift test` but crashes on
/// when the tests are listed (`swift test --filter`, `swift test list`). The class is
/// `nonisolated`: in a test target with default main-actor isolation, corelibs XCTest needs it
/// (its `XCTestCase` initializer is nonisolated), and elsewhere it changes nothing. Register
/// main-actor mocks with `registerOnMainActor`, which builds them on the main actor.
///
/// Each test method gets a fresh override layer over ``overriddenRegistry``; registrations the
/// test makes on that registry go to its layer too, and die with it. If a `@Lazy` read fails, the
/// message names the test before the program stops. If the process holds two copies of
/// LazyInject (a library that links it statically, in two dynamic libraries), the first test
/// that runs under this class or the `.overrides` trait fails, naming both images and the fix,
/// and the others run on. For an `async` test method, call
/// ``LazyInject/InitializerRegistry/withOverrides(_:isolation:operation:)`` in the test itself:
/// XCTest may run its body on a task that does not inherit the layer.
open class OverridingTestCase: XCTestCase {
  /// The registry the overrides apply to; ``LazyInject/InitializerRegistry/shared`` unless a
  /// subclass overrides it.
  open var overriddenRegistry: InitializerRegistry { .shared }

  /// Registers this test case's overriding initializers; does nothing unless overridden.
  open func overrides(_ overrides: InitializerRegistry) {}

  /// Runs the test inside ``LazyInject/InitializerRegistry/withOverrides(_:operation:)``.
  open override func invokeTest() {
    overriddenRegistry.withOverrides { layer in
      layer.withState { $0.testName = name }
      overrides(layer)
    } operation: {
      // Other copies of LazyInject, found at the first use of `shared`: before, or just now.
      if let warning = InitializerRegistry.takeCopiesWarning() {
        XCTFail(warning)
      }
      super.invokeTest()
    }
  }
}
