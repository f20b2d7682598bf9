import _LazyInjectShims

// Registering: every form of `register`, `registerOnMainActor` and `forward` by type, and
// removing rules. The forms by key path, which name a property's projection, live with it
// (PropertyWrapper/LazyProjection.swift).

extension InitializerRegistry {
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
  @inlinable
  public func register<Property, Container: AnyObject>(
    _ propertyType: Property.Type, in containerType: Container.Type, scope: Scope = .unique,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ initializer: @escaping @Sendable (Container) throws -> Property
  ) {
    let build = Registration.build { try initializer(unsafeDowncast($0, to: Container.self)) }
    add(
      propertyType, container: containerType, scope: scope, fileID: fileID, line: line,
      build: build)
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
  @inlinable
  public func register<Property>(
    _ propertyType: Property.Type, scope: Scope = .unique, fileID: StaticString = #fileID,
    line: UInt = #line, _ initializer: @escaping @Sendable (AnyObject) throws -> Property
  ) {
    let build = Registration.build(with: initializer)
    add(propertyType, container: nil, scope: scope, fileID: fileID, line: line, build: build)
  }

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

  /// Removes every registration, rules for one property included, and with them the instances
  /// their scopes keep; properties resolved already keep their values.
  public func unregisterAll() { change { $0.removeAll() } }

  /// Removes every registration: renamed ``unregisterAll()``, beside `register` and `unregister`.
  @available(*, deprecated, renamed: "unregisterAll()")
  public func removeAll() { unregisterAll() }

  /// Applies `body` to the rules of every registry in `changeTargets`, and drops what the
  /// registrations it removes kept; all of it is returned from the lock, so released after
  /// unlocking (a singleton's deinit may resolve).
  internal func change(_ body: (inout RuleTable) -> [AnyRegistration]) {
    for target in changeTargets {
      _ = target.withStateChange { state in
        let registrations = body(&state.rules)
        return (registrations, registrations.map { state.instances.drop($0) })
      }
    }
  }

  /// Where unregistering and resetting on this registry apply: inside `configure`, the layer
  /// being configured; while override layers over it are in force, the innermost one (its own
  /// rules and its in-force ones); else the registry itself.
  ///
  /// Unregistering there removes only what the layer holds: to hide a rule of the registry,
  /// register a replacement. Registering adds to the last of them: inside `configure`, the
  /// layer's own rules; while layers are in force, the innermost one's in-force rules (below
  /// every layer's own). So a test that registers on ``shared`` changes only its own layer,
  /// which dies with it, never the registry that parallel tests share; and a mock is never
  /// replaced by production set-up that the test calls. The tracer and the duplicate handler
  /// are the registry's own.
  package var changeTargets: [InitializerRegistry] {
    // Until the process makes a layer, none is configured or in force: no task-local to read
    // (a sixth of a registration, measured).
    guard _lazyinject_layers_made() != 0 else {
      return alone
    }
    if let configuring = OverrideScope.configuring, configuring.baseRegistry === self {
      return [configuring]
    }
    let layer = OverrideScope.layers.last { $0.base == ObjectIdentifier(self) }
    return layer.map { [$0.registry, $0.inForce] } ?? alone
  }

  /// Adds a synchronous registration to the last of `changeTargets`.
  ///
  /// It is of `propertyType` for `container` (nil: the root default), or for one property
  /// (`property`, whose root class is the container). `build` is `Registration.build(with:)` of
  /// the initializer.
  @usableFromInline
  internal func add(
    _ propertyType: Any.Type, container: AnyClass? = nil, property: PropertyTarget? = nil,
    scope: Scope, fileID: StaticString, line: UInt, isMainActor: Bool = false,
    build: @escaping Registration.Build
  ) {
    add(
      propertyType, container: container, property: property, scope: scope, fileID: fileID,
      line: line, isMainActor: isMainActor
    ) { Registration(source: $0, build: build) }
  }

  /// Adds the registration `make` makes of its source, a synchronous or an async one; without
  /// `make`, a forward to `forwardTarget`, a rule the resolution serves by resolving the target
  /// for the same container and casting.
  internal func add(
    _ propertyType: Any.Type, container: AnyClass?, property: PropertyTarget? = nil,
    forwardTarget: Any.Type? = nil, scope: Scope = .unique, fileID: StaticString, line: UInt,
    isMainActor: Bool = false, isAsync: Bool = false,
    make: (RuleSource) -> AnyRegistration = { AnyRegistration(source: $0) }
  ) {
    let target = changeTargets.last!
    let module = Self.installing
    let registration = make(
      RuleSource(
        propertyType: propertyType, containerType: property?.rootClass ?? container, scope: scope,
        fileID: fileID, line: line, isMainActor: isMainActor, isAsync: isAsync,
        moduleName: module?.name, property: property, forwardTarget: forwardTarget, in: target))
    // What the replaced registration kept is returned from the lock: released after unlocking.
    let (replaced, handler, _) = target.withStateChange { state in
      let replaced = state.rules.insert(registration)
      return (replaced, state.duplicateHandler, replaced.map { state.instances.drop($0) })
    }
    if let replaced, module?.isConditional != true {
      handler(DuplicateRegistration(replaced: replaced.rule, replacement: registration.rule))
    }
  }

  /// Registers a main-actor initializer of `propertyType` for containers of class
  /// `containerType` and its subclasses.
  ///
  /// UIKit and SwiftUI types are `@MainActor`, and so are an app's view controllers and view
  /// models. This initializer runs on the main actor: it receives the sender typed as its class,
  /// may read its main-actor state and build main-actor values, with no
  /// `MainActor.assumeIsolated`:
  ///
  /// ```swift
  /// registry.registerOnMainActor(ProgressViewService.self, in: UsersViewController.self) {
  ///   sender in
  ///   ProgressViewService(viewController: sender)
  /// }
  /// ```
  ///
  /// Because the closure is `@MainActor`, a `@MainActor` test can capture a test double it
  /// keeps, such as a spy, even when the double is not `Sendable`.
  ///
  /// Read such a property (or resolve it) on the main actor. Elsewhere, ``resolve(_:for:)``
  /// throws a ``ResolutionError`` of kind ``ResolutionError/Kind/requiresMainActor``, and a
  /// `@Lazy` read stops the program with its message, naming the property: always, even when
  /// the scope keeps an instance built on the main actor earlier, so that a program behaves the
  /// same whichever thread reads first. Register a `nonisolated` type with
  /// `register(_:in:scope:fileID:line:_:)` to read it anywhere.
  ///
  /// - Parameters:
  ///   - propertyType: The type of the `@Lazy` property.
  ///   - containerType: The class whose objects (and subclasses' objects) use this initializer.
  ///   - scope: How many instances to build; ``Scope/unique`` by default.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  ///   - initializer: Builds the value on the main actor; receives the object whose property is
  ///     being resolved.
  public func registerOnMainActor<Property, Container: AnyObject>(
    _ propertyType: Property.Type, in containerType: Container.Type, scope: Scope = .unique,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ initializer: @escaping @MainActor (Container) throws -> Property
  ) {
    add(
      propertyType, container: containerType, scope: scope, fileID: fileID, line: line,
      isMainActor: true, build: Registration.build(with: onMainActor(initializer)))
  }

  /// Registers the main-actor root default for `propertyType`: how to build it, on the main
  /// actor, for any container that has no registration of its own.
  ///
  /// ```swift
  /// registry.registerOnMainActor(ToastPresenter.self) { _ in ToastPresenter() }
  /// ```
  ///
  /// See ``registerOnMainActor(_:in:scope:fileID:line:_:)`` for the rules.
  ///
  /// - Parameters:
  ///   - propertyType: The type of the `@Lazy` property.
  ///   - scope: How many instances to build; ``Scope/unique`` by default.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  ///   - initializer: Builds the value on the main actor; receives the object whose property is
  ///     being resolved.
  public func registerOnMainActor<Property>(
    _ propertyType: Property.Type, scope: Scope = .unique, fileID: StaticString = #fileID,
    line: UInt = #line, _ initializer: @escaping @MainActor (AnyObject) throws -> Property
  ) {
    add(
      propertyType, scope: scope, fileID: fileID, line: line, isMainActor: true,
      build: Registration.build(with: onMainActor(initializer)))
  }

  /// Unavailable: an initializer that awaits is registered with `register`, for a main-actor
  /// type too, and awaited on the actor its closure is isolated to (`{ @MainActor in ... }`).
  @available(
    *, unavailable,
    message:
      "an async initializer is registered with register(_:in:scope:_:), for a main-actor type too: it is awaited on the actor its closure is isolated to, as in { @MainActor sender in ... }"
  )
  public func registerOnMainActor<Property, Container: AnyObject>(
    _ propertyType: Property.Type, in containerType: Container.Type, scope: Scope = .unique,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ initializer: @escaping @MainActor (Container) async throws -> Property
  ) { fatalError("unavailable") }

  /// Unavailable: an initializer that awaits is registered with `register`, for a main-actor
  /// type too, and awaited on the actor its closure is isolated to (`{ @MainActor in ... }`).
  @available(
    *, unavailable,
    message:
      "an async initializer is registered with register(_:scope:_:), for a main-actor type too: it is awaited on the actor its closure is isolated to, as in { @MainActor sender in ... }"
  )
  public func registerOnMainActor<Property>(
    _ propertyType: Property.Type, scope: Scope = .unique, fileID: StaticString = #fileID,
    line: UInt = #line, _ initializer: @escaping @MainActor (AnyObject) async throws -> Property
  ) { fatalError("unavailable") }

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
    addAsync(propertyType, takesContainer: false, scope: scope, fileID: fileID, line: line) { _ in
      try await initializer()
    }
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
    addAsync(propertyType, container: containerType, scope: scope, fileID: fileID, line: line) {
      container in try await initializer(unsafeDowncast(container!, to: Container.self))
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
  ) {
    addAsync(propertyType, scope: scope, fileID: fileID, line: line) { container in
      try await initializer(container!)
    }
  }

  /// Adds an async registration; `container` or `property` as for a synchronous one.
  internal func addAsync<Property>(
    _ propertyType: Property.Type, container: AnyClass? = nil, property: PropertyTarget? = nil,
    takesContainer: Bool = true, scope: Scope, fileID: StaticString, line: UInt,
    make: @escaping @Sendable (AnyObject?) async throws -> Property
  ) {
    add(
      propertyType, container: container, property: property, scope: scope, fileID: fileID,
      line: line, isAsync: true
    ) { source in
      AnyRegistration(source: source, takesContainer: takesContainer) { container in
        try await make(container)
      }
    }
  }

  /// Resolves `forwardedType` by resolving `targetType` for the same sender: one instance under
  /// several types, such as a singleton shared through each of its protocols.
  ///
  /// ```swift
  /// registry.register(SharedAnalytics.self, scope: .singleton) { _ in SharedAnalytics() }
  /// registry.forward((any Tracking).self, to: SharedAnalytics.self)
  /// registry.forward((any Reporting).self, to: SharedAnalytics.self)
  /// // Every `@Lazy var tracker: any Tracking` and `any Reporting` gets the one SharedAnalytics.
  /// ```
  ///
  /// A forward is a root default for `forwardedType`: it follows the same rule order and
  /// inheritance as a registration, and lives in the innermost override layer when registered
  /// inside one. Resolving it resolves `targetType` with the target's own rules and scope (and
  /// the override layers in force: a test's mock of the target is forwarded too), then casts.
  ///
  /// A target whose value is not a `forwardedType` fails when the forwarded type is resolved,
  /// with a ``ResolutionError`` of kind ``ResolutionError/Kind/forwardTargetMismatch`` naming
  /// both types. A forward that the types alone show can never succeed (a struct that does not
  /// conform, a type forwarded to itself) is reported by `validate(classesIn:)` of
  /// `LazyInjectChecks`.
  ///
  /// - Parameters:
  ///   - forwardedType: The type properties declare, such as `(any Tracking).self`.
  ///   - targetType: The type whose rules build the value, such as `SharedAnalytics.self`.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  public func forward<Forwarded, Target>(
    _ forwardedType: Forwarded.Type, to targetType: Target.Type, fileID: StaticString = #fileID,
    line: UInt = #line
  ) { add(forwardedType, container: nil, forwardTarget: targetType, fileID: fileID, line: line) }

  /// Resolves `forwardedType` in containers of class `containerType` and its subclasses by
  /// resolving `targetType` for the same sender.
  ///
  /// ```swift
  /// registry.forward((any Reporting).self, in: SettingsViewController.self, to: SharedAnalytics.self)
  /// ```
  ///
  /// See ``forward(_:to:fileID:line:)`` for the rules.
  ///
  /// - Parameters:
  ///   - forwardedType: The type properties declare.
  ///   - containerType: The class whose objects (and subclasses' objects) use this forward.
  ///   - targetType: The type whose rules build the value.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  public func forward<Forwarded, Container: AnyObject, Target>(
    _ forwardedType: Forwarded.Type, in containerType: Container.Type, to targetType: Target.Type,
    fileID: StaticString = #fileID, line: UInt = #line
  ) {
    add(
      forwardedType, container: containerType, forwardTarget: targetType, fileID: fileID,
      line: line)
  }
}

/// The make function of a main-actor registration: calls `initializer` with the container as its
/// class.
///
/// Resolution calls it only on the main actor (`isMainActor` of its rule is checked first, on
/// every path).
internal func onMainActor<Container: AnyObject, Property>(
  _ initializer: @escaping @MainActor (Container) throws -> Property
) -> @Sendable (AnyObject) throws -> Property {
  { [initializer = onMainActorAnywhere(initializer)] container in
    try initializer(unsafeDowncast(container, to: Container.self))
  }
}
