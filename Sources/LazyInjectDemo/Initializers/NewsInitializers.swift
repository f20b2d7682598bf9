import LazyInject

/// The app delegate, the news screen and the background fetch share one store, built on first
/// access: a `nonisolated` service, registered with `register` so that a background queue can
/// resolve it.
struct NewsInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {
    registry.register(NewsStore.self, scope: .singleton) { _ in NewsStore() }
  }
}
