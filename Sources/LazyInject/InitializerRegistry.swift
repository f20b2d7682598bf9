import Dispatch
import _LazyInjectShims

/// The initializers that build `@Lazy` properties, keyed by property type and container class.
///
/// Register initializers at start-up, usually grouped in ``InitializerModule``s:
///
/// ```swift
/// let registry = InitializerRegistry.shared
/// // For UsersViewController and its subclasses:
/// registry.register(ResourceLoader.self, in: UsersViewController.self) { sender in
///   ResourceLoader.usersLoader()
/// }
/// // The root default, for every other container:
/// registry.register(ProgressViewService.self) { sender in ProgressViewService(owner: sender) }
/// // One instance for the whole app:
/// registry.register(RequestManager.self, scope: .singleton) { _ in RequestManager() }
/// ```
///
/// For a property of type `P` in an object of class `C`, the registry uses the registration for
/// `(P, C)`, else the one for the nearest superclass of `C`, else the root default for `P`, else
/// `init()` if `P` is ``DefaultInitializable``; otherwise resolution fails with a
/// ``ResolutionError``. The most specific registration wins whatever the order of registration,
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
  /// Before its first resolution it installs the modules an app lists through
  /// ``AutomaticModuleInstallation``, if the app conforms to it.
  public static let shared = InitializerRegistry(installsAutomaticModules: true)

  internal let lock = Lock()

  // Everything below is read and written only with `lock` held. The lock also makes Swift's
  // dynamic exclusivity checks redundant: they are turned off for these properties.

  @exclusivity(unchecked) nonisolated(unsafe) internal var table = RuleTable()

  @exclusivity(unchecked) nonisolated(unsafe) private var automaticModules: AutomaticModules

  /// Threads waiting in `lock.wait()` for a shared instance or for automatic installation.
  @exclusivity(unchecked) nonisolated(unsafe) private var waitingThreads = 0

  @exclusivity(unchecked) nonisolated(unsafe) internal var duplicateHandler:
    @Sendable (DuplicateRegistration) -> Void =
      DuplicateRegistration.warnOnce

  @exclusivity(unchecked) nonisolated(unsafe) internal var tracerStorage:
    (@Sendable (ResolutionEvent) -> Void)?

  /// 0 for a registry; n for the registry holding the n-th override layer over another.
  internal let overrideDepth: Int

  private enum AutomaticModules {
    case pending
    case installing(thread: UnsafeRawPointer)
    case installed
  }

  /// Creates an empty registry, independent of ``shared``.
  ///
  /// ```swift
  /// let registry = InitializerRegistry()
  /// registry.install(NetworkInitializers())
  /// let manager = try registry.resolve(RequestManager.self, for: screen)
  /// ```
  public convenience init() {
    self.init(installsAutomaticModules: false)
  }

  private init(installsAutomaticModules: Bool) {
    automaticModules = installsAutomaticModules ? .pending : .installed
    overrideDepth = 0
  }

  /// Creates the registry of an override layer `depth` layers above `base`.
  internal init(overriding base: InitializerRegistry, depth: Int) {
    automaticModules = .installed
    overrideDepth = depth
    duplicateHandler = base.lock.withLock { base.duplicateHandler }
  }

  // MARK: Registering

  /// Registers how to build `propertyType` for containers of class `containerType` and its
  /// subclasses.
  ///
  /// ```swift
  /// registry.register(ResourceLoader.self, in: UsersViewController.self) { sender in
  ///   ResourceLoader.usersLoader()
  /// }
  /// ```
  ///
  /// A registration for the same property type and container class replaces this one.
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
    _ propertyType: Property.Type,
    in containerType: Container.Type,
    scope: Scope = .unique,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ initializer: @escaping @Sendable (Container) throws -> Property
  ) {
    add(
      propertyType, container: containerType, scope: scope, fileID: fileID, line: line,
      make: { sender in try initializer(unsafeDowncast(sender, to: Container.self)) })
  }

  /// Registers the root default for `propertyType`: how to build it for any container that has
  /// no registration of its own.
  ///
  /// ```swift
  /// registry.register(ProgressViewService.self) { sender in ProgressViewService(owner: sender) }
  /// registry.register(RequestManager.self, scope: .singleton) { _ in RequestManager() }
  /// ```
  ///
  /// - Parameters:
  ///   - propertyType: The type of the `@Lazy` property.
  ///   - scope: How many instances to build; ``Scope/unique`` by default.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  ///   - initializer: Builds the value; receives the object whose property is being resolved.
  public func register<Property>(
    _ propertyType: Property.Type,
    scope: Scope = .unique,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ initializer: @escaping @Sendable (AnyObject) throws -> Property
  ) {
    add(propertyType, container: nil, scope: scope, fileID: fileID, line: line, make: initializer)
  }

  /// Removes the registration of `propertyType` for exactly `containerType`.
  ///
  /// Registrations for superclasses and the root default stay. Properties resolved already keep
  /// their values; later resolutions no longer see the registration.
  public func unregister<Property, Container: AnyObject>(
    _ propertyType: Property.Type, in containerType: Container.Type
  ) {
    let removed = lock.withLock { table.remove(property: propertyType, container: containerType) }
    withExtendedLifetime(removed) {}
  }

  /// Removes the root default of `propertyType`.
  public func unregister<Property>(_ propertyType: Property.Type) {
    let removed = lock.withLock { table.remove(property: propertyType, container: nil) }
    withExtendedLifetime(removed) {}
  }

  /// Removes every registration, and with them the singletons they keep.
  public func removeAll() {
    let removed = lock.withLock { table.removeAll() }
    withExtendedLifetime(removed) {}
  }

  private func add<Property>(
    _ propertyType: Property.Type, container: AnyClass?, scope: Scope, fileID: StaticString,
    line: UInt, make: @escaping @Sendable (AnyObject) throws -> Property
  ) {
    let registration = Registration(
      containerType: container, scope: scope, fileID: fileID, line: line,
      overrideDepth: overrideDepth, make: make)
    let (replaced, handler) = lock.withLock {
      (table.insert(registration, property: propertyType, container: container), duplicateHandler)
    }
    if let replaced {
      handler(DuplicateRegistration(replaced: replaced.rule, replacement: registration.rule))
    }
  }

  // MARK: Resolving

  /// Builds, or finds in its scope, the value of type `propertyType` for `container`.
  ///
  /// ```swift
  /// let loader = try registry.resolve(ResourceLoader.self, for: usersViewController)
  /// ```
  ///
  /// The registry never retains `container`.
  ///
  /// - Throws: ``ResolutionError`` if no rule applies, if the initializers form a cycle, or if an
  ///   initializer throws.
  public func resolve<Property, Container: AnyObject>(
    _ propertyType: Property.Type, for container: Container
  ) throws -> Property {
    var origin: _LazyOrigin?
    var isObserved = false
    return try resolve(propertyType, for: container, origin: &origin, isObserved: &isObserved)
  }

  /// Resolves; sets `origin` to what produced the value, and `isObserved` to whether the
  /// container conforms to `InjectionObserving`.
  internal func resolve<Property>(
    _ propertyType: Property.Type, for container: AnyObject, origin: inout _LazyOrigin?,
    isObserved: inout Bool
  ) throws -> Property {
    try ResolutionFrame.push(property: propertyType, for: container) {
      let containerClass: AnyClass = type(of: container)
      let lookup = self.lookUp(propertyType, in: containerClass)
      isObserved = lookup.isObserved
      let start = lookup.tracer == nil ? 0 : DispatchTime.now().uptimeNanoseconds
      let value: Property
      if let found = lookup.registration {
        let registration = unsafeDowncast(found, to: Registration<Property>.self)
        origin = .registration(registration)
        value = try lookup.owner.instance(of: registration, for: container)
      } else if let defaultType = propertyType as? any DefaultInitializable.Type {
        origin = .defaultInitializer(propertyType)
        value = defaultType.init() as! Property
      } else {
        throw missingInitializerError(propertyType, in: containerClass)
      }
      if let tracer = lookup.tracer {
        tracer(ResolutionEvent(origin: origin!, containerClass: containerClass, start: start))
      }
      return value
    }
  }

  /// What a resolution uses: the matching registration and the registry that owns it (the
  /// innermost override layer that has one, else this registry), and the tracer.
  private struct Lookup {
    var registration: AnyRegistration?
    var owner: InitializerRegistry
    var tracer: (@Sendable (ResolutionEvent) -> Void)?
    var isObserved: Bool
  }

  private func lookUp(_ property: Any.Type, in containerClass: AnyClass) -> Lookup {
    var tracer: (@Sendable (ResolutionEvent) -> Void)?
    let own = match(for: property, in: containerClass, tracer: &tracer)
    if OverrideScope.mayBeActive {
      for layer in OverrideScope.layers(over: self).reversed() {
        var unused: (@Sendable (ResolutionEvent) -> Void)?
        if let found = layer.match(for: property, in: containerClass, tracer: &unused).registration
        {
          return Lookup(
            registration: found, owner: layer, tracer: tracer, isObserved: own.isObserved)
        }
      }
    }
    return Lookup(
      registration: own.registration, owner: self, tracer: tracer, isObserved: own.isObserved)
  }

  /// The error for a property no layer and no `init()` can build.
  internal func missingInitializerError(_ property: Any.Type, in containerClass: AnyClass)
    -> ResolutionError
  {
    lock.withLock {
      ResolutionError.missingInitializer(
        property: property, containerClass: containerClass,
        searched: RuleTable.ancestry(of: containerClass),
        registered: table.registrations(for: property).map(\.rule),
        chain: ResolutionFrame.chain)
    }
  }

  /// The most specific registration of this registry, after installing automatic modules on
  /// first use; also reads the tracer, under the same lock.
  private func match(
    for property: Any.Type, in containerClass: AnyClass,
    tracer: inout (@Sendable (ResolutionEvent) -> Void)?
  ) -> RuleTable.Match {
    enum Step {
      case found(RuleTable.Match, (@Sendable (ResolutionEvent) -> Void)?)
      case install
    }
    let thread = _lazyinject_thread_identity()
    while true {
      let step: Step = lock.withLock {
        while case .installing(let installer) = automaticModules, installer != thread {
          waitForAnotherThread()
        }
        if case .pending = automaticModules {
          automaticModules = .installing(thread: thread)
          return .install
        }
        return .found(table.rule(for: property, in: containerClass), tracerStorage)
      }
      switch step {
      case .found(let match, let currentTracer):
        tracer = currentTracer
        return match
      case .install:
        installAutomaticModules()
      }
    }
  }

  private func installAutomaticModules() {
    let registryType: Any = InitializerRegistry.self
    if let installation = registryType as? any AutomaticModuleInstallation.Type {
      for module in installation.automaticModules {
        module.register(in: self)
      }
    }
    lock.withLock {
      automaticModules = .installed
      wakeWaitingThreads()
    }
  }

  /// Waits for `wakeWaitingThreads()`.
  ///
  /// Call with `lock` held.
  internal func waitForAnotherThread() {
    waitingThreads += 1
    lock.wait()
    waitingThreads -= 1
  }

  /// Wakes the threads in `waitForAnotherThread()`.
  ///
  /// Call with `lock` held.
  internal func wakeWaitingThreads() {
    if waitingThreads > 0 {
      lock.broadcast()
    }
  }
}
