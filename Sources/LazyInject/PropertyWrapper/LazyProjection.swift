/// The projected value of a `@Lazy` property: its state, seen from outside.
///
/// ```swift
/// let screen = UsersViewController()
/// print(screen.$resourceLoader.isResolved)  // false
/// _ = screen.resourceLoader
/// print(screen.$resourceLoader.isResolved)  // true
/// screen.$resourceLoader.reset()            // the next read resolves again
/// ```
///
/// A key path to the projection, such as `\UsersViewController.$auditLog`, names the property
/// in a rule for that property alone (see <doc:RegisteringInitializers#Rules-for-one-property>).
///
/// A projection holds its object strongly; keep it only as long as you need it.
public struct LazyProjection<Value> {
  /// The object whose property this is.
  internal let container: AnyObject
  /// The property's slot in `container`, at a fixed address while `container` lives.
  internal let slot: _LazySlot

  /// Whether the property holds a value, resolved or assigned.
  public var isResolved: Bool { Lazy<Value>._state(in: container, slot: slot).isResolved }

  /// The rule that produced the current value; nil if the property is unresolved, if its value
  /// was assigned, or if it is an optional that no rule served (nil).
  ///
  /// For a value served through a forward, the forward's rule, whose
  /// ``InitializerRegistry/Rule/forwardTargetTypeName`` names the target.
  public var rule: InitializerRegistry.Rule? { Lazy<Value>._state(in: container, slot: slot).rule }

  /// Drops the current value: the next read resolves again, with the rules and the override
  /// layers in force then, where it is read.
  ///
  /// Like assigning, resetting is a mutation of the object and must not race with reads.
  public func reset() { Lazy<Value>._replace(in: container, slot: slot, with: 0) }

  /// Resolves the property as its first read would, awaiting its initializer if that is async,
  /// keeps the value, and returns it; returns the value it holds if it is resolved.
  ///
  /// ```swift
  /// @MainActor func showAvatar(of screen: ProfileScreen) async throws {
  ///   let avatar = try await screen.$avatar.load()   // later reads: screen.avatar
  ///   print(avatar)
  /// }
  /// ```
  ///
  /// The same rules, override layers and scopes as a read; one value per object, whichever
  /// tasks and threads race. A rule that does not await serves as it does a read. Where a read
  /// would stop the program, this throws; after an error the property stays unresolved, and the
  /// next `load()` tries again. See <doc:AsyncInitializers>.
  nonisolated(nonsending) public func load() async throws -> Value {
    try await Lazy<Value>._load(container, slot: slot)
  }
}

// Rules for one property, named by the key path to its projection.

extension InitializerRegistry {
  /// Registers how to build one `@Lazy` property, named by the key path to its projected value,
  /// for objects of the key path's root class and its subclasses.
  ///
  /// Two properties of one type can then get different values:
  ///
  /// ```swift
  /// // UsersViewController declares `@Lazy var auditLog: Logger` and `@Lazy var debugLog: Logger`.
  /// registry.register(\UsersViewController.$auditLog) { sender in
  ///   Logger(category: "audit", owner: sender)
  /// }
  /// registry.register(Logger.self) { _ in Logger(category: "debug") }  // every other Logger
  /// ```
  ///
  /// A property rule wins over every rule of the property's type in the same registry, or in
  /// the same part of an override layer (its `configure` rules, or those registered while it is
  /// in force; the first part is searched first, whole): property rules first (the nearest root
  /// class first), then the type's rules (the nearest class, then the root default), then
  /// `init()`. A key path rooted at a subclass,
  /// such as `\AdminUsersViewController.$auditLog` for a property declared in
  /// `UsersViewController`, applies to that subclass's objects only. Explicit
  /// ``resolve(_:for:)`` names no property, so it uses the type's rules.
  ///
  /// Form the key path in code isolated like the class: for a main-actor class (any class of an
  /// app target with default main-actor isolation that is not `nonisolated`), in main-actor code,
  /// and register with `registerOnMainActor(_:scope:_:)` (below) if the initializer needs the
  /// sender's main-actor state. A key path through another object
  /// (`\UsersViewController.session.$token`) is reported when the rule is first used, as a
  /// ``ResolutionError`` of kind ``ResolutionError/Kind/invalidPropertyKeyPath``.
  ///
  /// The initializer runs on whichever thread reads the property, as for
  /// `register(_:in:scope:fileID:line:_:)`. Registering a rule for the same key path replaces
  /// this one; inside ``withOverrides(_:operation:)`` it applies to the innermost layer.
  ///
  /// - Parameters:
  ///   - property: The key path to the property's projected value, as in
  ///     `\UsersViewController.$auditLog`.
  ///   - scope: How many instances to build; ``Scope/unique`` by default.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  ///   - initializer: Builds the value; receives the object whose property is being resolved.
  public func register<Container: AnyObject, Property>(
    _ property: KeyPath<Container, LazyProjection<Property>>, scope: Scope = .unique,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ initializer: @escaping @Sendable (Container) throws -> Property
  ) {
    let build = Registration.build { try initializer(unsafeDowncast($0, to: Container.self)) }
    add(
      Property.self, property: .init(property), scope: scope, fileID: fileID, line: line,
      build: build)
  }

  /// Registers an initializer that awaits for one `@Lazy` property, named by the key path to its
  /// projected value: ``LazyProjection/load()`` builds it.
  ///
  /// ```swift
  /// registry.register(\ProfileScreen.$avatar) { screen in try await Avatar.load(for: screen.userID) }
  /// ```
  ///
  /// The rules of `register(_:scope:fileID:line:_:)` (a rule for one property) and of
  /// async initializers (see <doc:AsyncInitializers>) apply.
  ///
  /// - Parameters:
  ///   - property: The key path to the property's projected value.
  ///   - scope: How many instances to build; ``Scope/unique`` by default.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  ///   - initializer: Builds the value; receives the object whose property is being resolved.
  public func register<Container: AnyObject, Property>(
    _ property: KeyPath<Container, LazyProjection<Property>>, scope: Scope = .unique,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ initializer: @escaping @Sendable (Container) async throws -> Property
  ) {
    addAsync(Property.self, property: .init(property), scope: scope, fileID: fileID, line: line) {
      try await initializer(unsafeDowncast($0!, to: Container.self))
    }
  }

  /// Registers how to build one `@Lazy` property on the main actor, named by the key path to its
  /// projected value.
  ///
  /// ```swift
  /// registry.registerOnMainActor(\UsersViewController.$auditLog) { sender in
  ///   Logger(category: "audit", owner: sender)  // may read the sender's main-actor state
  /// }
  /// ```
  ///
  /// The rules of `register(_:scope:fileID:line:_:)` (a rule for one property) apply, and those of
  /// ``registerOnMainActor(_:in:scope:fileID:line:_:)``: read the property on the main actor.
  ///
  /// - Parameters:
  ///   - property: The key path to the property's projected value.
  ///   - scope: How many instances to build; ``Scope/unique`` by default.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  ///   - initializer: Builds the value on the main actor; receives the object whose property is
  ///     being resolved.
  public func registerOnMainActor<Container: AnyObject, Property>(
    _ property: KeyPath<Container, LazyProjection<Property>>, scope: Scope = .unique,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ initializer: @escaping @MainActor (Container) throws -> Property
  ) {
    add(
      Property.self, property: .init(property), scope: scope, fileID: fileID, line: line,
      isMainActor: true, build: Registration.build(with: onMainActor(initializer)))
  }

  /// Unavailable: an initializer that awaits is registered with `register`, for a main-actor
  /// type too, and awaited on the actor its closure is isolated to (`{ @MainActor in ... }`).
  @available(
    *, unavailable,
    message:
      "an async initializer is registered with register(_:scope:_:), for a main-actor type too: it is awaited on the actor its closure is isolated to, as in { @MainActor sender in ... }"
  )
  public func registerOnMainActor<Container: AnyObject, Property>(
    _ property: KeyPath<Container, LazyProjection<Property>>, scope: Scope = .unique,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ initializer: @escaping @MainActor (Container) async throws -> Property
  ) { fatalError("unavailable") }

  /// Removes the rule registered for the property at `property`, a key path to its projected
  /// value with the same root as the registration's.
  ///
  /// ```swift
  /// registry.unregister(\UsersViewController.$auditLog)
  /// ```
  ///
  /// The property's type's rules apply to it again. Properties resolved already keep their
  /// values.
  public func unregister<Container: AnyObject, Property>(
    _ property: KeyPath<Container, LazyProjection<Property>>
  ) { change { $0.remove(property: Property.self, key: .property(property)) } }
}

extension PropertyTarget {
  /// The property that `keyPath` leads to, a `@Lazy` property's projection.
  convenience init<Root: AnyObject, Value>(_ keyPath: KeyPath<Root, LazyProjection<Value>>) {
    self.init(root: Root.self, path: keyPath, storage: Lazy<Value>.self) { object in
      let projection = unsafeDowncast(object, to: Root.self)[keyPath: keyPath]
      return (projection.container, UnsafeRawPointer(projection.slot.address))
    }
  }
}
