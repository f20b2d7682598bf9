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
  /// that asks after the reset never gets an instance built or kept before it. Inside
  /// ``withOverrides(_:operation:)`` (or a test under the trait or `OverridingTestCase`), it
  /// resets the innermost layer's instances instead, so that a test never resets the instances
  /// parallel tests share. Values already resolved into `@Lazy` properties stay where they are.
  public func reset(_ scope: Scope) {
    let target = registrationTarget
    let dropped: [Any] = target.withStateChange {
      target.scopeGenerations[scope, default: 0] += 1
      let adopted = target.adoptedInstances.filter { $0.value.registration.scope == scope }
      for key in adopted.keys {
        target.adoptedInstances.removeValue(forKey: key)
      }
      return Array(adopted.values)
        + target.table.allRegistrations.filter { $0.scope == scope }.compactMap {
          $0.policy.dropInstance(of: $0)
        }
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
  /// Inside ``withOverrides(_:operation:)``, it resets the innermost layer's instances instead.
  /// Values already resolved into `@Lazy` properties stay where they are.
  public func resetSingletons() {
    let target = registrationTarget
    let dropped: [Any] = target.withStateChange {
      let registrations = target.table.allRegistrations
      for scope in Set(
        registrations.map(\.scope) + target.adoptedInstances.values.map(\.registration.scope))
      {
        target.scopeGenerations[scope, default: 0] += 1
      }
      defer { target.adoptedInstances.removeAll() }
      return Array(target.adoptedInstances.values)
        + registrations.compactMap { $0.policy.dropInstance(of: $0) }
    }
    withExtendedLifetime(dropped) {}  // Released after unlocking: their deinit may resolve.
  }
}
