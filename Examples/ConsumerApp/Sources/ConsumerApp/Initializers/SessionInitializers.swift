import LazyInject

/// Services that must await to exist.
struct SessionInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {
    // No sender: `prepare()` at launch builds it, and reads then return the kept session.
    registry.register(Session.self, scope: .singleton) { try await Session.restore() }
    // For each profile, from the model that shows it: the model calls `$avatar.load()`. The
    // initializer reads main-actor state, so it is isolated to the main actor and awaited there.
    registry.register(Avatar.self, in: ProfileViewModel.self) { @MainActor model in
      try await Avatar.fetch(for: model.session.user)
    }
  }
}
