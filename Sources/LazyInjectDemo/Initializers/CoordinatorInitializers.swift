import LazyInject

/// Every coordinator keeps its children in a `DefaultCoordinatorDependencies` unless a test says
/// otherwise.
struct CoordinatorInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {
    registry.registerOnMainActor((any CoordinatorDependencies).self) { _ in
      DefaultCoordinatorDependencies()
    }
  }
}
