import _LazyInjectShims

extension InitializerRegistry {
  /// Runs `operation` with extra registrations that win over this registry's, as tests do to swap
  /// in mocks.
  ///
  /// ```swift
  /// InitializerRegistry.shared.withOverrides { overrides in
  ///   overrides.register(RequestManager.self) { _ in MockRequestManager() }
  ///   overrides.register(ResourceLoader.self, in: UsersViewController.self) { _ in StubLoader() }
  /// } operation: {
  ///   let screen = UsersViewController()
  ///   // screen.requestManager is the mock; other containers' loaders are untouched.
  /// }
  /// ```
  ///
  /// `configure` registers into a fresh, empty layer. While `operation` runs, every resolution
  /// from this registry on the same task (or, outside tasks, the same thread) looks at that layer
  /// first: a rule from it beats every rule of the layers below, however deep its container class,
  /// and within the layer the most specific rule wins as usual. Nested calls stack, the innermost
  /// first. Nothing outside `operation` sees the layer, so tests running in parallel can each
  /// override ``shared``.
  ///
  /// Registering, unregistering and resetting on this registry inside `operation` apply to the
  /// innermost layer, not to the registry.
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
    _ configure: (InitializerRegistry) throws -> Void,
    operation: () throws -> Result
  ) rethrows -> Result {
    let layers = try OverrideScope.layers(adding: configure, over: self)
    return try OverrideScope.$current.withValue(layers, operation: operation)
  }

  /// Runs the asynchronous `operation` with extra registrations that win over this registry's.
  ///
  /// ```swift
  /// let loaded = await InitializerRegistry.shared.withOverrides { overrides in
  ///   overrides.register(RequestManager.self) { _ in MockRequestManager() }
  /// } operation: {
  ///   await feed.refresh()  // resolutions after suspension points see the mock too
  /// }
  /// ```
  ///
  /// The overrides follow `operation` across suspension points and into its child tasks; see
  /// ``withOverrides(_:operation:)`` for the rules.
  public func withOverrides<Result>(
    _ configure: (InitializerRegistry) throws -> Void,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> Result
  ) async rethrows -> Result {
    let layers = try OverrideScope.layers(adding: configure, over: self)
    return try await OverrideScope.$current.withValue(
      layers, operation: operation, isolation: isolation)
  }
}

/// One override layer: the registry holding its registrations, over the registry it overrides.
internal struct OverrideLayer: Sendable {
  let base: ObjectIdentifier
  let registry: InitializerRegistry
  /// The test that runs inside the layer, named in the message of a failed `@Lazy` read.
  var testName: String?
}

/// The override layers in force for the current task or thread.
internal enum OverrideScope {
  @TaskLocal static var current: [OverrideLayer] = []

  /// The layers over `base`, outermost first.
  static func layers(over base: InitializerRegistry) -> [InitializerRegistry] {
    current.filter { $0.base == ObjectIdentifier(base) }.map(\.registry)
  }

  /// The current layers plus a new one over `base`, filled by `configure`, for `testName`.
  static func layers(
    adding configure: (InitializerRegistry) throws -> Void, over base: InitializerRegistry,
    testName: String? = nil
  ) rethrows -> [OverrideLayer] {
    _lazyinject_set_overrides_used()
    let depth = layers(over: base).count + 1
    let layer = InitializerRegistry(overriding: base, depth: depth)
    try configure(layer)
    return current + [
      OverrideLayer(base: ObjectIdentifier(base), registry: layer, testName: testName)
    ]
  }

  /// The innermost test running inside override layers on this task, if any.
  static var testName: String? {
    current.last { $0.testName != nil }?.testName
  }
}

extension InitializerRegistry {
  // For LazyInjectTesting: the trait and the XCTest base class name the test they run, so that a
  // failed `@Lazy` read says which test it stopped.

  /// Runs `operation` with overrides, as ``withOverrides(_:operation:)``, for the test `testName`.
  @_spi(LazyInjectTesting)
  public func withOverrides<Result>(
    _ configure: (InitializerRegistry) throws -> Void,
    testName: String,
    operation: () throws -> Result
  ) rethrows -> Result {
    let layers = try OverrideScope.layers(adding: configure, over: self, testName: testName)
    return try OverrideScope.$current.withValue(layers, operation: operation)
  }

  /// Runs the asynchronous `operation` with overrides, as
  /// ``withOverrides(_:isolation:operation:)``, for the test `testName`.
  @_spi(LazyInjectTesting)
  public func withOverrides<Result>(
    _ configure: (InitializerRegistry) throws -> Void,
    testName: String,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> Result
  ) async rethrows -> Result {
    let layers = try OverrideScope.layers(adding: configure, over: self, testName: testName)
    return try await OverrideScope.$current.withValue(
      layers, operation: operation, isolation: isolation)
  }

  /// The test running inside override layers on the calling task, if a testing helper named it.
  @_spi(LazyInjectTesting)
  public static var currentTestName: String? {
    OverrideScope.testName
  }
}
