import LazyInject

extension InitializerRegistry.Scope {
  /// State kept per signed-in user, dropped at log-out with `reset(.session)`.
  static let session = Self.custom("session")
}

/// The user's session, one per sign-in.
struct SessionInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {
    registry.registerOnMainActor(UserSession.self, scope: .session) { _ in
      UserSession(user: SignIn.user)
    }
  }
}
