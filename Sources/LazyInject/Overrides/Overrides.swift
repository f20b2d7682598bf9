import _LazyInjectShims

extension InitializerRegistry {
  /// Runs `operation` with extra registrations that win over this registry's, as tests do to swap
  /// in mocks.
  ///
  /// ```swift
  /// InitializerRegistry.shared.withOverrides { overrides in
  ///   overrides.register(RequestManager.self) { _ in MockRequestManager() }
  ///   overrides.registerOnMainActor(ResourceLoader.self, in: UsersViewController.self) { _ in
  ///     StubLoader()
  ///   }
  /// } operation: {
  ///   UsersViewController().loadResources()
  ///   // Its request manager is the mock; other containers' loaders are untouched.
  /// }
  /// ```
  ///
  /// `configure` registers into a fresh, empty layer. While `operation` runs, every resolution
  /// from this registry on the same task (or, outside tasks, the same thread) looks at that layer
  /// first: a rule from it beats every rule of the layers below, however deep its container class,
  /// and within the layer the most specific rule wins as usual. Nested calls stack, the innermost
  /// first. No code outside `operation` sees the layer (only the objects created inside it, see
  /// below), so tests running in parallel can each override ``shared``.
  ///
  /// Registering on this registry while `operation` runs (in a test's body, a suite's `init`,
  /// or production set-up that a test calls) adds to the innermost layer too, below the rules
  /// of every layer's `configure`: a mock always wins over a registration made while it is in
  /// force, whatever the order. Unregistering and resetting apply to the innermost layer. All of
  /// it dies with the layer: a test never changes the registry that parallel tests share.
  /// Inside `configure`, registering on this registry adds to the layer being configured.
  ///
  /// An object created while `operation` runs keeps its layers: its `@Lazy` and `@WeakLazy`
  /// properties resolve with them even when first read after `withOverrides` returned, as a
  /// view model created in a preview or a factory does. Read inside other layers, such a property
  /// resolves with the object's layers and, above them, the reader's layers that the object was
  /// not created under. Those layers are no single chain, so a shared instance whose build used
  /// any of them goes to that read alone: no layer keeps it.
  ///
  /// Singletons built from the layer's registrations belong to the layer and go away with it. So
  /// does a shared (singleton, weak or custom-scope) instance of the registry whose build used a
  /// rule of the layer, directly or through the values it needed: it is seen only inside the
  /// layer, never by later or parallel code. A registry singleton whose build used no override is
  /// shared as usual.
  ///
  /// The layers are a task-local value: a `Task {}` created inside `operation` inherits them, as
  /// it inherits every task-local value, and keeps seeing the overrides (and keeping the layer
  /// alive) after `withOverrides` has returned, whatever other tasks and threads do. A
  /// `Task.detached` does not inherit them.
  ///
  /// The first override layer of a process turns the fast path of first reads off for the rest
  /// of it (see <doc:ConcurrencyAndLifetimes#The-fast-path-and-when-it-is-off>): measure speed in
  /// a process that makes none.
  ///
  /// - Parameters:
  ///   - configure: Registers the overriding initializers.
  ///   - operation: The code that sees the overrides.
  /// - Returns: What `operation` returns.
  public func withOverrides<Result>(
    _ configure: (InitializerRegistry) throws -> Void, operation: () throws -> Result
  ) rethrows -> Result {
    let stack = try OverrideScope.stack(adding: configure, over: self)
    return try OverrideScope.$current.withValue(stack, operation: operation)
  }

  /// Runs the asynchronous `operation` with extra registrations that win over this registry's.
  ///
  /// ```swift
  /// await InitializerRegistry.shared.withOverrides { overrides in
  ///   overrides.register(RequestManager.self) { _ in MockRequestManager() }
  /// } operation: {
  ///   await feed.refresh()  // resolutions after suspension points see the mock too
  /// }
  /// ```
  ///
  /// The overrides follow `operation` across suspension points and into its child tasks; see
  /// ``withOverrides(_:operation:)`` for the rules. Made first off the main actor, it awaits the
  /// installation of the automatic modules on the main actor, blocking no thread.
  public func withOverrides<Result>(
    _ configure: (InitializerRegistry) throws -> Void,
    isolation: isolated (any Actor)? = #isolation, operation: () async throws -> Result
  ) async rethrows -> Result {
    await installAutomaticModulesIfNeeded()
    let stack = try OverrideScope.stack(adding: configure, over: self)
    return try await OverrideScope.$current.withValue(
      stack, operation: operation, isolation: isolation)
  }
}

extension InitializerRegistry {
  // For LazyInjectTesting: the trait and the XCTest base class name the test they run in their
  // layer's `configure`, so that a failed `@Lazy` read says which test it stopped.

  /// The test that runs inside this override layer, which a testing helper names in the layer's
  /// `configure` closure; nil for a registry.
  @_spi(LazyInjectTesting) public var testName: String? {
    get { withState(\.testName) }
    set { withState { $0.testName = newValue } }
  }

  /// The test running inside override layers on the calling task, if a testing helper named it.
  @_spi(LazyInjectTesting) public static var currentTestName: String? { OverrideScope.testName }
}
