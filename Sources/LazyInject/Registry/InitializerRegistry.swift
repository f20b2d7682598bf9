import _LazyInjectShims

/// The initializers that build `@Lazy` properties, keyed by property type and container class.
///
/// Register initializers at start-up, usually grouped in ``InitializerModule``s:
///
/// ```swift
/// let registry = InitializerRegistry.shared
/// // For UsersViewController and its subclasses, built on the main actor (an app type):
/// registry.registerOnMainActor(ResourceLoader.self, in: UsersViewController.self) { sender in
///   ResourceLoader.usersLoader()
/// }
/// // The root default, for every other container, built on the main actor (a UI service):
/// registry.registerOnMainActor(ProgressViewService.self) { sender in
///   ProgressViewService(owner: sender)
/// }
/// // One instance for the whole app, of a nonisolated service, built on any thread:
/// registry.register(RequestManager.self, scope: .singleton) { _ in RequestManager() }
/// ```
///
/// For a property of type `P` in an object of class `C`, the registry uses a rule registered for
/// that property by key path (see `register(_:scope:fileID:line:_:)` (a rule for one property)),
/// else the registration for `(P, C)`, else the one for the nearest superclass of `C`, else the
/// root default for `P`, else `init()` if `P` is ``DefaultInitializable``; otherwise resolution
/// fails with a ``ResolutionError``. A forward (``forward(_:to:fileID:line:)``) is a registration
/// like the others, which resolves its target type. The most specific registration wins whatever the order of registration,
/// and a change applies to every resolution made after it.
///
/// ## Concurrency
///
/// All methods are thread-safe. Initializers run without any lock of the registry held, so an
/// initializer may read other `@Lazy` properties of its sender or resolve from the registry.
/// `@Lazy` properties always resolve from ``shared``; other registries serve explicit
/// ``resolve(_:for:)`` calls.
public final class InitializerRegistry: Sendable {
  /// The registry that `@Lazy` properties resolve from.
  ///
  /// Before its first use of any kind it installs the modules an app lists through
  /// ``AutomaticModuleInstallation``, if the app conforms to it; see there.
  public static let shared = InitializerRegistry(installsAutomaticModules: true)

  /// Everything that changes: rules, kept instances, settings (see `State`), behind the
  /// registry's lock.
  internal let state: Protected<State>

  /// 0 for a registry; n for the registries holding the n-th override layer over another.
  internal let overrideDepth: Int

  /// Whether this registry holds the rules registered while its override layer is in force (see
  /// `OverrideLayer`), rather than the layer's own.
  internal let isInForce: Bool

  /// The registry an override layer overrides; nil for a registry.
  private let overridden: InitializerRegistry?

  /// The registry itself, or for an override layer, the registry it overrides: where a
  /// resolution that sees every layer in force starts.
  internal var baseRegistry: InitializerRegistry { overridden ?? self }

  /// The identity of `baseRegistry`.
  internal var root: ObjectIdentifier { ObjectIdentifier(baseRegistry) }

  /// Creates an empty registry, independent of ``shared``.
  ///
  /// ```swift
  /// let registry = InitializerRegistry()
  /// registry.install(NetworkInitializers())
  /// let manager = try registry.resolve(RequestManager.self, for: UsersViewController())
  /// manager.request("/users")
  /// ```
  public convenience init() { self.init(installsAutomaticModules: false) }

  private init(installsAutomaticModules: Bool) {
    state = Protected(State(modules: installsAutomaticModules ? .pending : .installed))
    (overrideDepth, isInForce, overridden) = (0, false, nil)
  }

  /// Creates a registry of an override layer `depth` layers above `base`: its own rules, or
  /// those registered while it is in force.
  internal init(overriding base: InitializerRegistry, depth: Int, isInForce: Bool) {
    state = Protected(
      State(modules: .installed, duplicateHandler: base.withState(\.duplicateHandler)))
    (overrideDepth, self.isInForce, overridden) = (depth, isInForce, base)
  }

  // MARK: Registering

  /// Registers how to build `propertyType` for containers of class `containerType` and its
  /// subclasses, on whichever thread reads the property.
  ///
  /// ```swift
  /// registry.register(RequestManager.self, in: AdminUsersViewController.self) { sender in
  ///   RequestManager()
  /// }
  /// ```
  ///
  /// The initializer is a `@Sendable` closure, isolated to no actor: it builds nonisolated types,
  /// such as a service marked `nonisolated` for background work. A main-actor type (a UI type,
  /// or any type of an app target with default main-actor isolation that is not marked
  /// `nonisolated`) is registered with ``registerOnMainActor(_:in:scope:fileID:line:_:)``.
  ///
  /// A registration for the same property type and container class replaces this one. Inside
  /// ``withOverrides(_:operation:)`` (or a test under the `.overrides` trait or
  /// `OverridingTestCase`), registering, unregistering and resetting apply to the innermost
  /// override layer, and die with it: a test never changes what parallel tests share.
  ///
  /// - Parameters:
  ///   - propertyType: The type of the `@Lazy` property, such as `ResourceLoader.self` or
  ///     `(any ResourceLoading).self`.
  ///   - containerType: The class whose objects (and subclasses' objects) use this initializer.
  ///   - scope: How many instances to build; ``Scope/unique`` by default.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  ///   - initializer: Builds the value; receives the object whose property is being resolved.
  public func register<Property, Container: AnyObject>(
    _ propertyType: Property.Type, in containerType: Container.Type, scope: Scope = .unique,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ initializer: @escaping @Sendable (Container) throws -> Property
  ) {
    add(propertyType, container: containerType, scope: scope, fileID: fileID, line: line) {
      try initializer(unsafeDowncast($0, to: Container.self))
    }
  }

  /// Registers the root default for `propertyType`: how to build it for any container that has
  /// no registration of its own.
  ///
  /// ```swift
  /// registry.register(Session.self) { _ in Session() }
  /// registry.register(RequestManager.self, scope: .singleton) { _ in RequestManager() }
  /// ```
  ///
  /// As for `register(_:in:scope:fileID:line:_:)`, the initializer runs on whichever thread
  /// reads the property: register main-actor types with
  /// ``registerOnMainActor(_:scope:fileID:line:_:)-(Property.Type,_,_,_,_)``.
  ///
  /// - Parameters:
  ///   - propertyType: The type of the `@Lazy` property.
  ///   - scope: How many instances to build; ``Scope/unique`` by default.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  ///   - initializer: Builds the value; receives the object whose property is being resolved.
  public func register<Property>(
    _ propertyType: Property.Type, scope: Scope = .unique, fileID: StaticString = #fileID,
    line: UInt = #line, _ initializer: @escaping @Sendable (AnyObject) throws -> Property
  ) { add(propertyType, scope: scope, fileID: fileID, line: line, make: initializer) }

  /// Removes the registration of `propertyType` for exactly `containerType`.
  ///
  /// Registrations for superclasses and the root default stay. Properties resolved already keep
  /// their values; later resolutions no longer see the registration. While an override layer
  /// is in force, this removes the layer's registration, not the registry's below it.
  public func unregister<Property, Container: AnyObject>(
    _ propertyType: Property.Type, in containerType: Container.Type
  ) { change { $0.remove(property: propertyType, key: RuleTable.Key(containerType)) } }

  /// Removes the root default of `propertyType`.
  public func unregister<Property>(_ propertyType: Property.Type) {
    change { $0.remove(property: propertyType, key: RuleTable.Key(nil)) }
  }

  /// Removes every registration, rules for one property included, and with them the singletons
  /// they keep.
  public func removeAll() { change { $0.removeAll() } }

  /// Applies `body` to the rules of every registry in `changeTargets`, and drops what the
  /// registrations it removes kept; all of it is released after unlocking (a singleton's deinit
  /// may resolve).
  internal func change(_ body: (inout RuleTable) -> [AnyRegistration]) {
    changeState { state in
      let registrations = body(&state.rules)
      return (registrations, registrations.map { state.instances.drop($0) })
    }
  }

  /// Applies `body` to the state of every registry in `changeTargets` (with `withStateChange`);
  /// what it returns, which it took out of the state, is released after unlocking.
  internal func changeState(_ body: (inout State) -> Any) {
    for target in changeTargets { withExtendedLifetime(target.withStateChange(body)) {} }
  }

  /// Where registering on this registry adds, the last of `changeTargets`: inside an override
  /// layer's `configure`, that layer's own rules; while override layers over it are in force,
  /// the innermost one's in-force rules (below every layer's own); else the registry itself.
  ///
  /// So a test that registers on ``shared`` changes only its own layer, which dies with it,
  /// never the registry that parallel tests share; and a mock is never replaced by production
  /// set-up that the test calls. The tracer and the duplicate handler are the registry's own.
  internal var registrationTarget: InitializerRegistry {
    _lazyinject_overrides_used() == 0 ? self : changeTargets.last!  // No array: the common case.
  }

  /// Where unregistering and resetting on this registry apply: inside `configure`, the layer
  /// being configured; while override layers over it are in force, the innermost one (its own
  /// rules and its in-force ones); else the registry itself.
  ///
  /// Unregistering there removes only what the layer holds: to hide a rule of the registry,
  /// register a replacement.
  internal var changeTargets: [InitializerRegistry] {
    guard _lazyinject_overrides_used() != 0 else { return [self] }
    if let configuring = OverrideScope.configuring, configuring.root == ObjectIdentifier(self) {
      return [configuring]
    }
    guard let layer = OverrideScope.innermostLayer(over: self) else { return [self] }
    return [layer.registry, layer.inForce]
  }

  /// Adds a registration to `registrationTarget`: of `propertyType` for `container` (nil: the
  /// root default), or for one property (`property`, whose root class is the container); a
  /// forward to `forwardTarget`.
  internal func add<Property>(
    _ propertyType: Property.Type, container: AnyClass? = nil, property: PropertyTarget? = nil,
    forwardTarget: Any.Type? = nil, scope: Scope, fileID: StaticString, line: UInt,
    isMainActor: Bool = false, make: @escaping @Sendable (AnyObject) throws -> Property
  ) {
    add(
      propertyType, container: container, property: property, forwardTarget: forwardTarget,
      scope: scope, fileID: fileID, line: line, isMainActor: isMainActor, isAsync: false
    ) { Registration(source: $0, make: make) }
  }

  /// Adds the registration `make` makes of its source, a synchronous or an async one.
  internal func add(
    _ propertyType: Any.Type, container: AnyClass?, property: PropertyTarget? = nil,
    forwardTarget: Any.Type? = nil, scope: Scope, fileID: StaticString, line: UInt,
    isMainActor: Bool = false, isAsync: Bool, make: (RuleSource) -> AnyRegistration
  ) {
    let (target, module) = (registrationTarget, ModuleInstallation.current)
    let registration = make(
      RuleSource(
        propertyType: propertyType, containerType: property?.rootClass ?? container, scope: scope,
        fileID: fileID, line: line, isMainActor: isMainActor, isAsync: isAsync,
        moduleName: module?.name, property: property, forwardTarget: forwardTarget,
        layer: RuleSource.Layer(depth: target.overrideDepth, isInForce: target.isInForce)))
    let (replaced, handler, dropped) = target.withStateChange { state in
      let replaced = state.rules.insert(registration)
      return (replaced, state.duplicateHandler, replaced.map { state.instances.drop($0) })
    }
    withExtendedLifetime(dropped) {}
    if let replaced, module?.isConditional != true {
      handler(DuplicateRegistration(replaced: replaced.rule, replacement: registration.rule))
    }
  }
}
