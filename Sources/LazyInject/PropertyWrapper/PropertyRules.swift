extension InitializerRegistry {
  /// Registers how to build one `@Lazy` property, named by the key path to its projected value,
  /// for objects of the key path's root class and its subclasses.
  ///
  /// Two properties of one type can then get different values:
  ///
  /// ```swift
  /// final class UsersViewController: ViewController {
  ///   @Lazy var auditLog: Logger
  ///   @Lazy var debugLog: Logger
  /// }
  ///
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
    add(Property.self, property: .init(property), scope: scope, fileID: fileID, line: line) {
      try initializer(unsafeDowncast($0, to: Container.self))
    }
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
    addAsync(Property.self, property: .init(property), scope, fileID, line) {
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
      isMainActor: true, make: onMainActor(initializer))
  }

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
    self.init(Root.self, keyPath, Lazy<Value>.self) { object in
      let projection = unsafeDowncast(object, to: Root.self)[keyPath: keyPath]
      return (projection.container, UnsafeRawPointer(projection.slot.address))
    }
  }
}
