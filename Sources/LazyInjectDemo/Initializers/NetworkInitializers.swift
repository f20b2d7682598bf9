import LazyInject

/// One `RequestManager` for the whole app, with no `sharedInstance` anywhere.
struct NetworkInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {
    registry.register(RequestManager.self, scope: .singleton) { _ in RequestManager() }
  }
}
