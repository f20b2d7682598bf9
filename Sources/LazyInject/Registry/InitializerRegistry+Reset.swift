extension InitializerRegistry {
  /// Drops every instance that registrations of `scope` keep, and keeps the registrations: the
  /// next resolution of each builds a new instance.
  ///
  /// ```swift
  /// extension InitializerRegistry.Scope {
  ///   static let session = Self.custom("session")
  /// }
  ///
  /// func logOut() {
  ///   InitializerRegistry.shared.reset(.session)  // singletons and other scopes stay
  /// }
  /// ```
  ///
  /// A resolution that asked before the reset may still get the instance it was building; one
  /// that asks after the reset never gets an instance built or kept before it. Override layers
  /// keep their own instances (call `reset` on the layer for those). Values already resolved
  /// into `@Lazy` properties stay where they are.
  public func reset(_ scope: Scope) {
    let dropped: [Any] = withState {
      scopeGenerations[scope, default: 0] += 1
      return table.allRegistrations.filter { $0.scope == scope }.compactMap(Self.dropInstance)
    }
    withExtendedLifetime(dropped) {}  // Released after unlocking: their deinit may resolve.
  }

  /// Drops the instances that `.singleton`, `.weak` and custom-scope registrations keep, and
  /// keeps the registrations: the next resolution builds a new instance.
  ///
  /// ```swift
  /// final class CheckoutTests: XCTestCase {
  ///   override func tearDown() {
  ///     InitializerRegistry.shared.resetSingletons()
  ///   }
  /// }
  /// ```
  ///
  /// Values already resolved into `@Lazy` properties stay where they are.
  public func resetSingletons() {
    let dropped: [Any] = withState {
      let registrations = table.allRegistrations
      for scope in Set(registrations.map(\.scope)) {
        scopeGenerations[scope, default: 0] += 1
      }
      defer { adoptedInstances.removeAll() }
      return Array(adoptedInstances.values) + registrations.compactMap(Self.dropInstance)
    }
    withExtendedLifetime(dropped) {}  // Released after unlocking: their deinit may resolve.
  }

  /// Forgets the instance `registration` keeps, and returns it for release after unlocking.
  ///
  /// Call with the registry's lock held.
  private static func dropInstance(of registration: AnyRegistration) -> Any? {
    defer {
      registration.singleton = nil
      registration.weakInstance = nil
    }
    return registration.singleton
  }
}
