// Rules for one property with a hook after a build: the forms of LazyProjection.swift with an
// `afterBuild` closure, composed into the rule's build as in Resolution/AfterBuild.swift.

extension InitializerRegistry {
  /// Registers how to build one `@Lazy` property, named by the key path to its projected value,
  /// and a hook that runs once for each instance the rule builds, with the instance and its
  /// sender.
  ///
  /// ```swift
  /// registry.register(\UsersViewController.$auditLog) { _ in
  ///   Logger(category: "audit")
  /// } afterBuild: { logger, screen in
  ///   logger.log("auditing \(type(of: screen))")
  /// }
  /// ```
  ///
  /// The hook runs as the hook of ``register(_:in:scope:fileID:line:_:afterBuild:)-1oofn`` does.
  /// The rules of ``register(_:scope:fileID:line:_:)-3wm9m`` apply otherwise.
  ///
  /// - Parameters:
  ///   - property: The key path to the property's projected value.
  ///   - scope: How many instances to build; ``Scope/unique`` by default.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  ///   - initializer: Builds the value; receives the object whose property is being resolved.
  ///   - afterBuild: Receives each instance the initializer built, and the same object.
  public func register<Container: AnyObject, Property>(
    _ property: KeyPath<Container, LazyProjection<Property>>, scope: Scope = .unique,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ initializer: @escaping @Sendable (Container) throws -> Property,
    afterBuild: @escaping @Sendable (Property, Container) throws -> Void
  ) {
    register(property, scope: scope, fileID: fileID, line: line) { sender in
      try Self.hooked(try initializer(sender)) { try afterBuild($0, sender) }
    }
  }

  /// Registers an initializer that awaits for one `@Lazy` property, named by the key path to its
  /// projected value, and a hook that runs once for each instance it builds, with the instance
  /// and its sender: `load()` returns once it has run.
  ///
  /// ```swift
  /// registry.register(\ProfileScreen.$avatar) { _ in
  ///   try await Avatar.load(for: 42)
  /// } afterBuild: { avatar, screen in
  ///   print("an avatar for \(type(of: screen))")
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - property: The key path to the property's projected value.
  ///   - scope: How many instances to build; ``Scope/unique`` by default.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  ///   - initializer: Builds the value; receives the object whose property is being loaded.
  ///   - afterBuild: Receives each instance the initializer built, and the same object.
  public func register<Container: AnyObject, Property>(
    _ property: KeyPath<Container, LazyProjection<Property>>, scope: Scope = .unique,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ initializer: @escaping @Sendable (Container) async throws -> Property,
    afterBuild: @escaping @Sendable (Property, Container) async throws -> Void
  ) {
    register(property, scope: scope, fileID: fileID, line: line) {
      (sender: Container) async throws -> Property in
      try await Self.hooked(try await initializer(sender)) { try await afterBuild($0, sender) }
    }
  }

  /// Registers a main-actor initializer for one `@Lazy` property, named by the key path to its
  /// projected value, and a main-actor hook that runs once for each instance the rule builds,
  /// with the instance and its sender.
  ///
  /// ```swift
  /// registry.registerOnMainActor(\UsersViewController.$progressViewService) { sender in
  ///   ProgressViewService(viewController: sender)
  /// } afterBuild: { service, sender in
  ///   sender.title = "Users"
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - property: The key path to the property's projected value.
  ///   - scope: How many instances to build; ``Scope/unique`` by default.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  ///   - initializer: Builds the value on the main actor; receives the object whose property is
  ///     being resolved.
  ///   - afterBuild: Receives each instance the initializer built, and the same object.
  public func registerOnMainActor<Container: AnyObject, Property>(
    _ property: KeyPath<Container, LazyProjection<Property>>, scope: Scope = .unique,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ initializer: @escaping @MainActor (Container) throws -> Property,
    afterBuild: @escaping @MainActor (Property, Container) throws -> Void
  ) {
    registerOnMainActor(property, scope: scope, fileID: fileID, line: line) { sender in
      try Self.hooked(try initializer(sender)) { try afterBuild($0, sender) }
    }
  }
}
