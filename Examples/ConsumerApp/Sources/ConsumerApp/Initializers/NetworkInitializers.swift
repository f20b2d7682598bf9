import LazyInject

/// The app's connections to the server.
struct NetworkInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {
    // One request manager for the whole app.
    registry.register(RequestManager.self, scope: .singleton) { _ in
      RequestManager(baseURL: "https://api.example.com")
    }
    // A protocol-typed property is registered under its existential type. The live client is
    // main-actor isolated, so it is built on the main actor.
    registry.registerOnMainActor((any ProfileAPI).self) { _ in LiveProfileAPI() }
  }
}
