import Dispatch
import _LazyInjectShims

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
  /// `@Lazy` read stops the program with its message, naming the property.
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
    _ propertyType: Property.Type,
    in containerType: Container.Type,
    scope: Scope = .unique,
    fileID: StaticString = #fileID,
    line: UInt = #line,
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
    _ propertyType: Property.Type,
    scope: Scope = .unique,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ initializer: @escaping @MainActor (AnyObject) throws -> Property
  ) {
    add(
      propertyType, container: nil, scope: scope, fileID: fileID, line: line, isMainActor: true,
      make: onMainActor(initializer))
  }
}

/// The make function of a main-actor registration: checks that it runs on the main actor, then
/// calls `initializer` with the sender as its class.
internal func onMainActor<Container: AnyObject, Property>(
  _ initializer: @escaping @MainActor (Container) throws -> Property
) -> @Sendable (AnyObject) throws -> Property {
  { [initializer = anywhere(initializer)] sender in
    try checkMainActor()
    return try initializer(unsafeDowncast(sender, to: Container.self))
  }
}

/// Throws the error that says the property must be read on the main actor, unless the calling
/// code runs on it.
private func checkMainActor() throws {
  guard isOnMainActor() else {
    throw ResolutionError.requiresMainActor(frame: ResolutionFrame.current?.pointee)
  }
}

/// Whether the calling code runs on the main actor: on the main thread, or in a job of the main
/// queue, which serves the main actor (on Linux, a worker thread may drain it, as under Swift
/// Testing, where the runtime's own check says no).
internal func isOnMainActor() -> Bool {
  _lazyinject_is_main_thread() != 0 || DispatchQueue.getSpecific(key: mainQueueKey) != nil
}

/// A key that only the main queue has, to tell its jobs from others.
private let mainQueueKey: DispatchSpecificKey<Bool> = {
  let key = DispatchSpecificKey<Bool>()
  DispatchQueue.main.setSpecific(key: key, value: true)
  return key
}()

/// The main-actor `initializer` as a function callable from anywhere, for callers that check
/// `checkMainActor()` first.
///
/// A synchronous `@MainActor` function has the representation of a nonisolated one; calling it
/// on the main thread is what `MainActor.assumeIsolated` does too. That function would do, but
/// it requires a `Sendable` result, and the values of main-actor initializers often are not (a
/// test's spy), and sending the non-`Sendable` sender into its closure is refused.
private func anywhere<Sender, Property>(
  _ initializer: @escaping @MainActor (Sender) throws -> Property
) -> @Sendable (Sender) throws -> Property {
  unsafeBitCast(initializer, to: (@Sendable (Sender) throws -> Property).self)
}
