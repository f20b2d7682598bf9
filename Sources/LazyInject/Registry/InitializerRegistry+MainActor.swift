extension InitializerRegistry {
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
      isMainActor: true, make: onMainActor(initializer))
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
      make: onMainActor(initializer))
  }
}

/// The make function of a main-actor registration: calls `initializer` with the sender as its
/// class.
///
/// Resolution calls it only on the main actor (`isMainActor` of its rule is checked first, on
/// every path).
internal func onMainActor<Container: AnyObject, Property>(
  _ initializer: @escaping @MainActor (Container) throws -> Property
) -> @Sendable (AnyObject) throws -> Property {
  { [initializer = onMainActorAnywhere(initializer)] sender in
    try initializer(unsafeDowncast(sender, to: Container.self))
  }
}
