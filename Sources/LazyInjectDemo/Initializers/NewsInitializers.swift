import LazyInject

/// The app delegate and the news screen share one store: it is built on first access.
struct NewsInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {
    registry.register(NewsStore.self, scope: .singleton) { _ in NewsStore() }
  }
}
