import LazyInject
import Testing

/// A Swift Testing trait that runs each test with override registrations.
///
/// ```swift
/// @Test(.overrides { overrides in
///   overrides.register(RequestManager.self) { _ in MockRequestManager() }
/// })
/// @MainActor func usersScreenLoadsFromTheMock() {
///   #expect(UsersViewController().requestManager is MockRequestManager)
/// }
///
/// @Suite(.overrides { $0.register(RequestManager.self) { _ in MockRequestManager() } })
/// struct UsersScreenTests {  // every test in the suite gets its own layer
///   @Test @MainActor func loadsUsers() {
///     #expect(UsersViewController().requestManager is MockRequestManager)
///   }
/// }
/// ```
///
/// Each test case gets a fresh override layer, so tests that run in parallel never share mocks
/// or override singletons. Registrations the test makes on
/// ``LazyInject/InitializerRegistry/shared`` go to its layer too, and die with it. If a `@Lazy`
/// read fails, the message names the test before the program stops. If the process holds two
/// copies of LazyInject (a library that links it statically, in two dynamic libraries), the
/// first test that runs under the trait or `OverridingTestCase` fails, naming both images and
/// the fix, and the others run on.
public struct OverridesTrait: TestTrait, SuiteTrait, TestScoping {
  private let registry: InitializerRegistry
  private let configure: @Sendable (InitializerRegistry) -> Void

  fileprivate init(
    registry: InitializerRegistry, configure: @escaping @Sendable (InitializerRegistry) -> Void
  ) {
    self.registry = registry
    self.configure = configure
  }

  /// Applies to every test of a suite it is attached to.
  public var isRecursive: Bool { true }

  /// Runs one test case inside
  /// ``LazyInject/InitializerRegistry/withOverrides(_:isolation:operation:)``.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    guard testCase != nil else {
      try await function()  // The suite itself: its tests each get a layer.
      return
    }
    try await provideScope(named: test.displayName ?? test.name, performing: function)
  }

  /// Runs one test case named `name` in a fresh layer: the scope of a test case.
  package func provideScope(
    named name: String, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await registry.withOverrides { layer in
      layer.withState { $0.testName = name }
      configure(layer)
    } operation: {
      // Other copies of LazyInject, found at the first use of `shared`: before, or just now.
      if let warning = InitializerRegistry.takeCopiesWarning() {
        Issue.record(Comment(rawValue: warning))
      }
      try await function()
    }
  }
}

extension Trait where Self == OverridesTrait {
  /// Runs the test, or each test of the suite, with the registrations `configure` makes winning
  /// over those of `registry`.
  ///
  /// - Parameters:
  ///   - registry: The registry to override; ``LazyInject/InitializerRegistry/shared`` by
  ///     default, the one `@Lazy` properties use.
  ///   - configure: Registers the overriding initializers into a fresh layer.
  /// - Returns: The trait, for `@Test` or `@Suite`.
  public static func overrides(
    in registry: InitializerRegistry = .shared,
    _ configure: @escaping @Sendable (InitializerRegistry) -> Void
  ) -> Self {
    OverridesTrait(registry: registry, configure: configure)
  }
}
