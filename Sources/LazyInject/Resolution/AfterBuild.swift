// A hook after a build: `register` forms with an `afterBuild` closure, which runs once for each
// instance its rule builds. The hook is composed into the rule's make function at registration
// (its closure calls the initializer, then the hook), so that every path that builds through the
// rule runs it where the initializer's value is produced: no lock held, before any reader or
// keeper sees the value, inside the build's frame (a read of the property it completes is a
// cycle). A rule without a hook builds as before. The hook's time is recorded apart
// (`Recorder.note(afterBuildSince:inTask:)`).

extension InitializerRegistry {
  /// Registers how to build `propertyType` for containers of class `containerType` and its
  /// subclasses, and a hook that runs once for each instance the rule builds, with the instance
  /// and its sender.
  ///
  /// ```swift
  /// registry.register(Logger.self, in: UsersViewController.self) { _ in
  ///   Logger(category: "users")
  /// } afterBuild: { logger, screen in
  ///   logger.log("built for \(type(of: screen))")
  /// }
  /// ```
  ///
  /// The hook runs after the initializer returns and before the instance reaches the read that
  /// asked for it or any other thread: readers waiting for a shared instance wait for the hook
  /// too. It runs with no lock of LazyInject held, on every path that builds through the rule (a
  /// first read, ``resolve(_:for:)``, a forward to the type, `load()`, a build that spans a reset
  /// of its scope), and never when the scope returns an instance it keeps. It may read `@Lazy`
  /// properties, as an initializer may; reading the property whose build it completes is a
  /// cycle, reported as one. A hook that throws fails the build, as the initializer's error
  /// does. The rules of
  /// ``register(_:in:scope:fileID:line:_:)-5dl4i`` apply otherwise.
  ///
  /// - Parameters:
  ///   - propertyType: The type of the `@Lazy` property.
  ///   - containerType: The class whose objects (and subclasses' objects) use this initializer.
  ///   - scope: How many instances to build; ``Scope/unique`` by default.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  ///   - initializer: Builds the value; receives the object whose property is being resolved.
  ///   - afterBuild: Receives each instance the initializer built, and the same object.
  public func register<Property, Container: AnyObject>(
    _ propertyType: Property.Type, in containerType: Container.Type, scope: Scope = .unique,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ initializer: @escaping @Sendable (Container) throws -> Property,
    afterBuild: @escaping @Sendable (Property, Container) throws -> Void
  ) {
    register(propertyType, in: containerType, scope: scope, fileID: fileID, line: line) { sender in
      try Self.hooked(try initializer(sender)) { try afterBuild($0, sender) }
    }
  }

  /// Registers the root default for `propertyType`, and a hook that runs once for each instance
  /// the rule builds, with the instance and its sender.
  ///
  /// ```swift
  /// registry.register(RequestManager.self, scope: .singleton) { _ in
  ///   RequestManager()
  /// } afterBuild: { manager, _ in
  ///   manager.request("/config")  // once: for the one instance the scope keeps
  /// }
  /// ```
  ///
  /// The hook runs as the hook of ``register(_:in:scope:fileID:line:_:afterBuild:)-1oofn`` does.
  ///
  /// - Parameters:
  ///   - propertyType: The type of the `@Lazy` property.
  ///   - scope: How many instances to build; ``Scope/unique`` by default.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  ///   - initializer: Builds the value; receives the object whose property is being resolved.
  ///   - afterBuild: Receives each instance the initializer built, and the same object.
  public func register<Property>(
    _ propertyType: Property.Type, scope: Scope = .unique, fileID: StaticString = #fileID,
    line: UInt = #line, _ initializer: @escaping @Sendable (AnyObject) throws -> Property,
    afterBuild: @escaping @Sendable (Property, AnyObject) throws -> Void
  ) {
    register(propertyType, scope: scope, fileID: fileID, line: line) { sender in
      try Self.hooked(try initializer(sender)) { try afterBuild($0, sender) }
    }
  }

  /// Registers an initializer that awaits and takes no sender, as the root default of
  /// `propertyType`, and a hook that runs once for each instance it builds: `prepare()` builds
  /// it, hook included.
  ///
  /// ```swift
  /// registry.register(Database.self, scope: .singleton) {
  ///   try await Database.open()
  /// } afterBuild: { database in
  ///   try await database.migrate()
  /// }
  /// ```
  ///
  /// The hook may await, and runs as the hook of
  /// ``register(_:in:scope:fileID:line:_:afterBuild:)-1oofn`` does, on the actor it is isolated to:
  /// ``prepare()`` and `load()` return once it has run, and a synchronous read finds the instance
  /// only then. A hook that throws fails the build as the initializer's error does. The rules of
  /// ``register(_:scope:fileID:line:_:)-(_,_,_,_,()->Property)`` apply otherwise.
  ///
  /// - Parameters:
  ///   - propertyType: The type of the `@Lazy` property.
  ///   - scope: How many instances to build; ``Scope/unique`` by default.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  ///   - initializer: Builds the value.
  ///   - afterBuild: Receives each instance the initializer built.
  public func register<Property>(
    _ propertyType: Property.Type, scope: Scope = .unique, fileID: StaticString = #fileID,
    line: UInt = #line, _ initializer: @escaping @Sendable () async throws -> Property,
    afterBuild: @escaping @Sendable (Property) async throws -> Void
  ) {
    register(propertyType, scope: scope, fileID: fileID, line: line) {
      () async throws -> Property in
      try await Self.hooked(try await initializer()) { try await afterBuild($0) }
    }
  }

  /// Registers an initializer that awaits, of `propertyType` for containers of class
  /// `containerType` and its subclasses, and a hook that runs once for each instance it builds,
  /// with the instance and its sender.
  ///
  /// ```swift
  /// registry.register(Avatar.self, in: ProfileScreen.self) { _ in
  ///   try await Avatar.load(for: 42)
  /// } afterBuild: { avatar, screen in
  ///   print("an avatar for \(type(of: screen))")
  /// }
  /// ```
  ///
  /// The hook may await, and runs as the hook of
  /// ``register(_:scope:fileID:line:_:afterBuild:)-(_,_,_,_,()->Property,_)`` does: `load()`
  /// returns once it has run. The rules of ``register(_:in:scope:fileID:line:_:)-6l75w`` apply
  /// otherwise.
  ///
  /// - Parameters:
  ///   - propertyType: The type of the `@Lazy` property.
  ///   - containerType: The class whose objects (and subclasses' objects) use this initializer.
  ///   - scope: How many instances to build; ``Scope/unique`` by default.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  ///   - initializer: Builds the value; receives the object whose property is being loaded.
  ///   - afterBuild: Receives each instance the initializer built, and the same object.
  public func register<Property, Container: AnyObject>(
    _ propertyType: Property.Type, in containerType: Container.Type, scope: Scope = .unique,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ initializer: @escaping @Sendable (Container) async throws -> Property,
    afterBuild: @escaping @Sendable (Property, Container) async throws -> Void
  ) {
    register(propertyType, in: containerType, scope: scope, fileID: fileID, line: line) {
      (sender: Container) async throws -> Property in
      try await Self.hooked(try await initializer(sender)) { try await afterBuild($0, sender) }
    }
  }

  /// Registers an initializer that awaits, as the root default of `propertyType`, and a hook
  /// that runs once for each instance it builds, with the instance and its sender.
  ///
  /// ```swift
  /// registry.register(Avatar.self) { _ in
  ///   try await Avatar.load(for: 42)
  /// } afterBuild: { avatar, sender in
  ///   print("an avatar for \(type(of: sender))")
  /// }
  /// ```
  ///
  /// The hook runs as the hook of ``register(_:in:scope:fileID:line:_:afterBuild:)-3828c``
  /// does.
  ///
  /// - Parameters:
  ///   - propertyType: The type of the `@Lazy` property.
  ///   - scope: How many instances to build; ``Scope/unique`` by default.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  ///   - initializer: Builds the value; receives the object whose property is being loaded.
  ///   - afterBuild: Receives each instance the initializer built, and the same object.
  public func register<Property>(
    _ propertyType: Property.Type, scope: Scope = .unique, fileID: StaticString = #fileID,
    line: UInt = #line, _ initializer: @escaping @Sendable (AnyObject) async throws -> Property,
    afterBuild: @escaping @Sendable (Property, AnyObject) async throws -> Void
  ) {
    register(propertyType, scope: scope, fileID: fileID, line: line) {
      (sender: AnyObject) async throws -> Property in
      try await Self.hooked(try await initializer(sender)) { try await afterBuild($0, sender) }
    }
  }

  /// Registers a main-actor initializer of `propertyType` for containers of class
  /// `containerType` and its subclasses, and a main-actor hook that runs once for each instance
  /// the rule builds, with the instance and its sender: where the hook may use the sender's
  /// main-actor state.
  ///
  /// ```swift
  /// registry.registerOnMainActor(ProgressViewService.self, in: UsersViewController.self) {
  ///   sender in
  ///   ProgressViewService(viewController: sender)
  /// } afterBuild: { service, sender in
  ///   sender.title = "Users"
  /// }
  /// ```
  ///
  /// The hook runs as the hook of ``register(_:in:scope:fileID:line:_:afterBuild:)-1oofn`` does,
  /// on the main actor. The rules of ``registerOnMainActor(_:in:scope:fileID:line:_:)`` apply
  /// otherwise.
  ///
  /// - Parameters:
  ///   - propertyType: The type of the `@Lazy` property.
  ///   - containerType: The class whose objects (and subclasses' objects) use this initializer.
  ///   - scope: How many instances to build; ``Scope/unique`` by default.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  ///   - initializer: Builds the value on the main actor; receives the object whose property is
  ///     being resolved.
  ///   - afterBuild: Receives each instance the initializer built, and the same object.
  public func registerOnMainActor<Property, Container: AnyObject>(
    _ propertyType: Property.Type, in containerType: Container.Type, scope: Scope = .unique,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ initializer: @escaping @MainActor (Container) throws -> Property,
    afterBuild: @escaping @MainActor (Property, Container) throws -> Void
  ) {
    registerOnMainActor(propertyType, in: containerType, scope: scope, fileID: fileID, line: line) {
      sender in
      try Self.hooked(try initializer(sender)) { try afterBuild($0, sender) }
    }
  }

  /// Registers a main-actor root default for `propertyType`, and a main-actor hook that runs once
  /// for each instance the rule builds, with the instance and its sender.
  ///
  /// ```swift
  /// registry.registerOnMainActor(ToastPresenter.self) { _ in
  ///   ToastPresenter()
  /// } afterBuild: { presenter, sender in
  ///   print("a toast presenter for \(type(of: sender))")
  /// }
  /// ```
  ///
  /// The hook runs as the hook of ``register(_:in:scope:fileID:line:_:afterBuild:)-1oofn`` does,
  /// on the main actor.
  ///
  /// - Parameters:
  ///   - propertyType: The type of the `@Lazy` property.
  ///   - scope: How many instances to build; ``Scope/unique`` by default.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  ///   - initializer: Builds the value on the main actor; receives the object whose property is
  ///     being resolved.
  ///   - afterBuild: Receives each instance the initializer built, and the same object.
  public func registerOnMainActor<Property>(
    _ propertyType: Property.Type, scope: Scope = .unique, fileID: StaticString = #fileID,
    line: UInt = #line, _ initializer: @escaping @MainActor (AnyObject) throws -> Property,
    afterBuild: @escaping @MainActor (Property, AnyObject) throws -> Void
  ) {
    registerOnMainActor(propertyType, scope: scope, fileID: fileID, line: line) { sender in
      try Self.hooked(try initializer(sender)) { try afterBuild($0, sender) }
    }
  }

  /// `value`, which a rule with an async hook just built, once `hook` has run on it: the hook's
  /// time is recorded apart from the initializer's, in the task.
  internal static func hooked<Property>(
    _ value: Property, then hook: (Property) async throws -> Void
  ) async rethrows -> Property {
    let start = Recorder.start
    try await hook(value)
    Recorder.note(afterBuildSince: start, inTask: true)
    return value
  }

  /// `value`, which a rule with a synchronous hook just built, once `hook` has run on it: the
  /// hook's time is recorded apart from the initializer's.
  internal static func hooked<Property>(
    _ value: Property, then hook: (Property) throws -> Void
  ) rethrows -> Property {
    let start = Recorder.start
    try hook(value)
    Recorder.note(afterBuildSince: start, inTask: false)
    return value
  }
}
