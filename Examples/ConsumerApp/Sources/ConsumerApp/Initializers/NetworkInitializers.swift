import LazyInject

/// One API client for the whole app.
struct NetworkInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {
    registry.register((any APIClient).self, scope: .singleton) { _ in LiveAPIClient() }
  }
}
