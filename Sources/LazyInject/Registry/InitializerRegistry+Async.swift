// Async initializers: registering them. They are built by `prepare()` and `$property.load()`
// (FirstRead/Loading.swift); a synchronous read gets the instance their scope keeps.

extension InitializerRegistry {
  /// Registers an initializer that awaits and takes no sender, as the root default of
  /// `propertyType`: it can be prepared before any object asks for it.
  ///
  /// ```swift
  /// registry.register(Database.self, scope: .singleton) { try await Database.open() }
  ///
  /// try await registry.prepare()      // at launch: opens the database
  /// let screen = SettingsScreen()
  /// print(screen.database)            // a plain read: the prepared instance
  /// ```
  ///
  /// A synchronous read of a property this rule serves returns the instance its scope keeps,
  /// once ``prepare()`` or ``LazyProjection/load()`` built it; before, it stops the program
  /// with an error that names the property and says the fix. It never blocks a thread on the
  /// initializer. An initializer isolated to the main actor (`{ @MainActor in ... }`) is awaited
  /// on it; a nonisolated one runs off it. See <doc:AsyncInitializers>.
  ///
  /// A closure that does not `await` matches the synchronous forms first: give the closure an
  /// `await`, or its type, to register it as async.
  ///
  /// - Parameters:
  ///   - propertyType: The type of the `@Lazy` property.
  ///   - scope: How many instances to build; ``Scope/unique`` by default. ``prepare()`` builds
  ///     the rules whose scope keeps their instance.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  ///   - initializer: Builds the value.
  public func register<Property>(
    _ propertyType: Property.Type, scope: Scope = .unique, fileID: StaticString = #fileID,
    line: UInt = #line, _ initializer: @escaping @Sendable () async throws -> Property
  ) {
    addAsync(propertyType, takesSender: false, scope, fileID, line) { _ in try await initializer() }
  }

  /// Registers an initializer that awaits, for containers of class `containerType` and its
  /// subclasses; it receives the object whose property is being resolved.
  ///
  /// ```swift
  /// registry.register(Avatar.self, in: ProfileScreen.self) { screen in
  ///   try await Avatar.load(for: screen.userID)
  /// }
  ///
  /// @MainActor func showAvatar(of screen: ProfileScreen) async throws {
  ///   print(try await screen.$avatar.load())   // in the screen's .task or viewIsAppearing
  /// }
  /// ```
  ///
  /// The rules of ``register(_:scope:fileID:line:_:)-(_,_,_,_,()->Property)`` apply, except that
  /// ``prepare()`` cannot build it: it needs the sender.
  ///
  /// - Parameters:
  ///   - propertyType: The type of the `@Lazy` property.
  ///   - containerType: The class whose objects (and subclasses' objects) use this initializer.
  ///   - scope: How many instances to build; ``Scope/unique`` by default.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  ///   - initializer: Builds the value; receives the object whose property is being resolved.
  public func register<Property, Container: AnyObject>(
    _ propertyType: Property.Type, in containerType: Container.Type, scope: Scope = .unique,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ initializer: @escaping @Sendable (Container) async throws -> Property
  ) {
    addAsync(propertyType, container: containerType, scope, fileID, line) {
      try await initializer(unsafeDowncast($0!, to: Container.self))
    }
  }

  /// Registers an initializer that awaits, as the root default of `propertyType`; it receives
  /// the object whose property is being resolved.
  ///
  /// The rules of async `register(_:in:scope:fileID:line:_:)`
  /// apply.
  ///
  /// - Parameters:
  ///   - propertyType: The type of the `@Lazy` property.
  ///   - scope: How many instances to build; ``Scope/unique`` by default.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  ///   - initializer: Builds the value; receives the object whose property is being resolved.
  public func register<Property>(
    _ propertyType: Property.Type, scope: Scope = .unique, fileID: StaticString = #fileID,
    line: UInt = #line, _ initializer: @escaping @Sendable (AnyObject) async throws -> Property
  ) { addAsync(propertyType, scope, fileID, line) { try await initializer($0!) } }

  /// Adds an `AsyncRegistration`; `container` or `property` as for a synchronous one.
  internal func addAsync<Property>(
    _ propertyType: Property.Type, container: AnyClass? = nil, property: PropertyTarget? = nil,
    takesSender: Bool = true, _ scope: Scope, _ fileID: StaticString, _ line: UInt,
    make: @escaping @Sendable (AnyObject?) async throws -> Property
  ) {
    add(
      propertyType, container: container, property: property, scope: scope, fileID: fileID,
      line: line, isAsync: true
    ) { AsyncRegistration(source: $0, takesSender: takesSender, make: make) }
  }
}
