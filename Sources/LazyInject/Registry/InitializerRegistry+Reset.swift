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
    for target in changeTargets {
      target.drop(scope)
    }
  }

  /// Drops the instances this registry and its registrations keep for `scope`.
  private func drop(_ scope: Scope) {
    let dropped: [Any] = withStateChange {
      scopeGenerations[scope, default: 0] += 1
      let adopted = adoptedInstances.filter { $0.value.registration.scope == scope }
      for key in adopted.keys {
        adoptedInstances.removeValue(forKey: key)
      }
      return Array(adopted.values)
        + table.allRegistrations.filter { $0.scope == scope }.compactMap {
          $0.policy.dropInstance(of: $0)
        }
    }
    withExtendedLifetime(dropped) {}  // Released after unlocking: their deinit may resolve.
  }

  /// Drops the instances that `.singleton`, `.weak` and custom-scope registrations keep, and
  /// keeps the registrations: the next resolution builds a new instance.
  ///
  /// ```swift
  /// nonisolated final class CheckoutTests: XCTestCase {
  ///   override func tearDown() {
  ///     InitializerRegistry.shared.resetSingletons()
  ///   }
  /// }
  /// ```
  ///
  /// Inside ``withOverrides(_:operation:)``, it resets the innermost layer's instances instead.
  /// Values already resolved into `@Lazy` properties stay where they are.
  public func resetSingletons() {
    for target in changeTargets {
      target.dropSharedInstances()
    }
  }

  /// Drops every instance this registry and its registrations keep.
  private func dropSharedInstances() {
    let dropped: [Any] = withStateChange {
      let registrations = table.allRegistrations
      for scope in Set(
        registrations.map(\.scope) + adoptedInstances.values.map(\.registration.scope))
      {
        scopeGenerations[scope, default: 0] += 1
      }
      defer { adoptedInstances.removeAll() }
      return Array(adoptedInstances.values)
        + registrations.compactMap { $0.policy.dropInstance(of: $0) }
    }
    withExtendedLifetime(dropped) {}  // Released after unlocking: their deinit may resolve.
  }
}
