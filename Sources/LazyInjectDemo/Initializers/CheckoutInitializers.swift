import LazyInject

/// A checkout screen's coordinator is the flow that runs now; nil once it has finished.
struct CheckoutInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {
    registry.registerOnMainActor(CheckoutCoordinator?.self, in: CheckoutScreen.self) { _ in
      Flows.checkout
    }
  }
}
