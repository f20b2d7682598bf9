import LazyInject

/// How screens get their progress service: built from the screen itself (the sender).
struct ServiceInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {
    registry.register(ProgressViewService.self) { sender in
      ProgressViewService(viewController: sender)
    }
  }
}
