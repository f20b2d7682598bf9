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

  // Everything below is read and written only with `lock` held.

  nonisolated(unsafe) internal var table = RuleTable()

  nonisolated(unsafe) private var automaticModules: AutomaticModules

  /// Threads waiting in `lock.wait()` for a shared instance or for automatic installation.
  nonisolated(unsafe) private var waitingThreads = 0

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
    lock.withLock { table.remove(property: propertyType, container: containerType) }
  }

  /// Removes the root default of `propertyType`.
  public func unregister<Property>(_ propertyType: Property.Type) {
    lock.withLock { table.remove(property: propertyType, container: nil) }
  }

  /// Removes every registration, and with them the singletons they keep.
  public func removeAll() {
    lock.withLock { table.removeAll() }
  }

  private func add<Property>(
    _ propertyType: Property.Type, container: AnyClass?, scope: Scope, fileID: StaticString,
    line: UInt, make: @escaping @Sendable (AnyObject) throws -> Property
  ) {
    let rule = Rule(
      propertyTypeName: typeName(propertyType), containerTypeName: container.map(typeName),
      scope: scope, fileID: "\(fileID)", line: Int(line), overrideDepth: 0)
    let registration = Registration(rule: rule, scope: scope, make: make)
    let replaced = lock.withLock {
      table.insert(registration, property: propertyType, container: container)
    }
    if let replaced {
      DuplicateRegistration.report(replaced: replaced.rule, by: rule)
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
    return try resolve(propertyType, for: container, origin: &origin)
  }

  /// Resolves, and sets `origin` to what produced the value.
  internal func resolve<Property>(
    _ propertyType: Property.Type, for container: AnyObject, origin: inout _LazyOrigin?
  ) throws -> Property {
    try ResolutionFrame.push(property: propertyType, for: container) {
      let containerClass: AnyClass = type(of: container)
      if let found = registration(for: propertyType, in: containerClass) {
        let registration = unsafeDowncast(found, to: Registration<Property>.self)
        origin = .registration(registration)
        return try instance(of: registration, for: container)
      }
      if let defaultType = propertyType as? any DefaultInitializable.Type {
        origin = .defaultInitializer(propertyType)
        return defaultType.init() as! Property
      }
      throw lock.withLock {
        ResolutionError.missingInitializer(
          property: propertyType, containerClass: containerClass,
          searched: table.search(propertyType, in: containerClass).visited,
          registered: table.registrations(for: propertyType).map(\.rule),
          chain: ResolutionFrame.chain)
      }
    }
  }

  /// The most specific registration, after installing automatic modules on first use.
  private func registration(for property: Any.Type, in containerClass: AnyClass)
    -> AnyRegistration?
  {
    enum Step {
      case found(AnyRegistration?)
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
        return .found(table.rule(for: property, in: containerClass))
      }
      switch step {
      case .found(let registration):
        return registration
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

  /// Waits for `wakeWaitingThreads()`. Call with `lock` held.
  internal func waitForAnotherThread() {
    waitingThreads += 1
    lock.wait()
    waitingThreads -= 1
  }

  /// Wakes the threads in `waitForAnotherThread()`. Call with `lock` held.
  internal func wakeWaitingThreads() {
    if waitingThreads > 0 {
      lock.broadcast()
    }
  }
}
