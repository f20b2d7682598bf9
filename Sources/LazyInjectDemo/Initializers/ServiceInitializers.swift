import LazyInject

/// How screens get their progress service: built from the screen itself (the sender), on the
/// main actor, since both are UI types.
struct ServiceInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {
    registry.registerOnMainActor(ProgressViewService.self) { sender in
      ProgressViewService(viewController: sender)
    }
  }
}
